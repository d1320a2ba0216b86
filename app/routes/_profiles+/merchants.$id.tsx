import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { PublicProfile } from "~/components/reputation/public-profile";
import { ProfileReviews } from "~/components/reputation/reviews";
import { listFromUrl } from "~/web/market-forms.server";
import { orRefusal } from "~/web/errors.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { requireUser } from "~/web/auth.server";
import { getMerchantProfile } from "~/services/reputation/profiles.server";
import { listUserReviews } from "~/services/reputation/reviews.server";
import { pageId } from "~/web/params.server";

export const meta = marketTitleMeta("titles.profile");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const profile = await orRefusal(getMerchantProfile(pageId(params, "id", "profile_not_found"), user.id));
  const { list: reviews } = await listFromUrl(request, ["page"], (q) => listUserReviews(profile.id, q));
  return json({ profile, reviews, viewerId: user.id });
}

export default function MerchantProfilePage() {
  const { t } = useTranslation();
  const { profile, reviews, viewerId } = useLoaderData<typeof loader>();
  const here = `/merchants/${profile.id}`;
  return (
    <PublicProfile
      profile={profile}
      viewerId={viewerId}
      here={here}
      facts={[
        profile.company_name ? { label: t("fields.company_name"), value: profile.company_name } : null,
        {
          label: t("nav.opportunities"),
          value: t("public_profile.open_opportunities", { count: profile.open_opportunities_count }),
        },
      ]}
    >
      <ProfileReviews reviews={reviews.data} meta={reviews.meta} viewerId={viewerId} back={here} />
    </PublicProfile>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
