import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/market/error-boundary";
import { PortfolioList } from "~/components/portfolio";
import { PublicProfile } from "~/components/public-profile";
import { orRefusal } from "~/lib/market-forms.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { requireUser } from "~/services/auth.server";
import { getFreelancerProfile } from "~/services/profiles.server";

export const meta = marketTitleMeta("titles.profile");

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  return json({ profile: await orRefusal(getFreelancerProfile(params.id!)) });
}

export default function FreelancerProfilePage() {
  const { t } = useTranslation();
  const { profile } = useLoaderData<typeof loader>();
  return (
    <PublicProfile profile={profile}>
      <section className="card" aria-labelledby="portfolio-title">
        <h3 id="portfolio-title">{t("public_profile.portfolio")}</h3>
        {profile.portfolio.length ? <PortfolioList items={profile.portfolio} /> : <p className="muted">{t("portfolio.empty")}</p>}
      </section>
    </PublicProfile>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
