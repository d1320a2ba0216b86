import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { OpportunityCard } from "~/components/marketplace/opportunity-card";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { marketTitleMeta } from "~/lib/market-meta";
import { recommendedOpportunities } from "~/services/discovery/matches.server";
import { requireUser } from "~/web/auth.server";
import { orRefusal } from "~/web/errors.server";
import { listFromUrl } from "~/web/market-forms.server";

// "Para você": open opportunities ranked by what they share with the freelancer (docs/product.md).

export const meta = marketTitleMeta("titles.for_you");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { list } = await orRefusal(listFromUrl(request, ["page"], (q) => recommendedOpportunities(user, q)));
  return json({ ...list, hasSkills: user.skills !== "[]" });
}

export default function ForYouPage() {
  const { t } = useTranslation("market");
  const { data, meta, hasSkills } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <PageHeader
        title={t("for_you.title")}
        intro={t("for_you.intro")}
        actions={
          <Link to="/opportunities" className="btn btn-secondary">
            {t("for_you.all")}
          </Link>
        }
      />
      {data.length ? (
        <div className="opp-list">
          {data.map((item) => (
            <OpportunityCard key={item.uuid} item={item} viewer="freelancer" />
          ))}
        </div>
      ) : (
        <EmptyState
          title={t("for_you.empty")}
          text={hasSkills ? t("for_you.empty_text") : t("for_you.no_skills")}
          action={
            hasSkills ? null : (
              <Link to="/pages/profile-setting" className="btn btn-primary">
                {t("for_you.add_skills")}
              </Link>
            )
          }
        />
      )}
      <Pagination meta={meta} />
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
