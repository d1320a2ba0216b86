import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ShareCard } from "~/components/discovery/share-card";
import { PortfolioList } from "~/components/reputation/portfolio";
import { PublicProfile } from "~/components/reputation/public-profile";
import { ProfileReviews } from "~/components/reputation/reviews";
import { titleMeta } from "~/lib/meta";
import { requireUser } from "~/web/auth.server";
import { listFromUrl } from "~/web/market-forms.server";
import { getFreelancerProfile, getMerchantProfile } from "~/services/reputation/profiles.server";
import { listUserReviews } from "~/services/reputation/reviews.server";
import { profileShareUrl } from "~/services/discovery/public.server";

export const meta = titleMeta("titles.profile");

/**
 * One's own profile: everything the public profile shows (rating, city, portfolio, reviews),
 * plus what only its owner sees (the e-mail), the way to edit it and a link to the public page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [profile, { list: reviews }, shareUrl] = await Promise.all([
    user.account_type === "freelancer"
      ? getFreelancerProfile(user.id, user.id)
      : getMerchantProfile(user.id, user.id).then((p) => ({ ...p, portfolio: null })),
    listFromUrl(request, ["page"], (q) => listUserReviews(user.id, q)),
    user.account_type === "freelancer" ? profileShareUrl(user.id) : null,
  ]);
  // A profile an operator hid: its owner is told here, with the reason.
  return json({ profile, reviews, email: user.email, hiddenReason: user.profile_hidden_reason, shareUrl });
}

export default function ProfilePage() {
  const { t } = useTranslation();
  const { profile, reviews, email, hiddenReason, shareUrl } = useLoaderData<typeof loader>();
  const publicPath = `/${profile.account_type === "freelancer" ? "freelancers" : "merchants"}/${profile.id}`;
  return (
    <PublicProfile
      profile={profile}
      viewerId={profile.id}
      here="/profile"
      hiddenReason={hiddenReason}
      actions={
        <div className="profile-edit profile-actions">
          <Link to={publicPath} className="btn btn-secondary">
            {t("profile.view_public")}
          </Link>
          <Link to="/pages/profile-setting" className="btn btn-secondary">
            {t("profile.edit")}
          </Link>
        </div>
      }
      facts={[
        {
          label: t("fields.email"),
          value: (
            <>
              {email} <span className="muted small">{t("profile.only_you")}</span>
            </>
          ),
        },
        "company_name" in profile && profile.company_name
          ? { label: t("fields.company_name"), value: profile.company_name }
          : null,
        "open_opportunities_count" in profile
          ? {
              label: t("nav.opportunities"),
              value: t("public_profile.open_opportunities", { count: profile.open_opportunities_count }),
            }
          : null,
      ]}
    >
      {shareUrl ? (
        <ShareCard
          url={shareUrl}
          heading={t("profile.share_heading")}
          label={t("profile.share_label")}
          hint={t("profile.share_hint")}
          open={t("profile.share_open")}
        />
      ) : null}
      {profile.portfolio ? (
        <section className="card" aria-labelledby="portfolio-title">
          <h3 id="portfolio-title">{t("public_profile.portfolio")}</h3>
          {profile.portfolio.length ? (
            <PortfolioList items={profile.portfolio} />
          ) : (
            <p className="muted">
              {t("portfolio.empty")} <Link to="/pages/profile-setting#portfolio">{t("profile.add_portfolio")}</Link>
            </p>
          )}
        </section>
      ) : null}
      <ProfileReviews reviews={reviews.data} meta={reviews.meta} viewerId={profile.id} back="/profile" />
    </PublicProfile>
  );
}
