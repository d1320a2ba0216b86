import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatDate } from "~/lib/format";
import { Avatar } from "~/components/ui/avatar";
import { RatingSummary, type RatingData } from "./rating";
import { ReportLink } from "~/components/ui/report-link";

export type PublicProfileData = {
  id: string;
  hidden: boolean;
  name: string;
  full_name: string;
  display_name: string | null;
  photo_url: string | null;
  account_type: "merchant" | "freelancer";
  bio: string;
  skills: string[];
  city: string | null;
  remote: boolean;
  member_since: string;
  rating: RatingData;
  completed_contracts: number;
};

/** The head and details of a public profile; what differs by account type comes as children. */
export function PublicProfile({
  profile,
  facts,
  children,
  viewerId,
  here,
}: {
  profile: PublicProfileData;
  facts?: ReactNode;
  children?: ReactNode;
  /** Who reads it (anyone but its owner may report it), and the page's path to come back to. */
  viewerId: string;
  here: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <div className="page">
      {profile.hidden ? (
        <p className="notice notice-warning" role="status">
          {t("moderation.profile_hidden", { ns: "market" })}
        </p>
      ) : null}
      <section className="card profile-card">
        <div className="profile-head">
          <Avatar user={profile} size="lg" />
          <div>
            <h2>{profile.name}</h2>
            {profile.display_name ? <p className="muted">{profile.full_name}</p> : null}
            <span className={`badge badge-${profile.account_type}`}>{t(`account_types.${profile.account_type}`)}</span>
            {viewerId !== profile.id ? (
              <p>
                <ReportLink type="profile" id={profile.id} back={here} />
              </p>
            ) : null}
          </div>
        </div>
        <dl className="details">
          <div>
            <dt>{t("profile.member_since")}</dt>
            <dd>{formatDate(profile.member_since, i18n.language)}</dd>
          </div>
          <div>
            <dt>{t("reviews.rating_label", { ns: "market" })}</dt>
            <dd>
              <RatingSummary rating={profile.rating} />
            </dd>
          </div>
          <div>
            <dt>{t("reviews.completed_contracts", { ns: "market" })}</dt>
            <dd>{profile.completed_contracts}</dd>
          </div>
          {profile.city ? (
            <div>
              <dt>{t("public_profile.city")}</dt>
              <dd>{profile.city}</dd>
            </div>
          ) : null}
          {profile.account_type === "freelancer" && profile.remote ? (
            <div>
              <dt>{t("directory.remote_badge")}</dt>
              <dd>{t("public_profile.remote")}</dd>
            </div>
          ) : null}
          {facts}
          <div className="wide">
            <dt>{t("public_profile.about")}</dt>
            <dd className="prewrap">{profile.bio || <span className="muted">{t("public_profile.no_bio")}</span>}</dd>
          </div>
          <div className="wide">
            <dt>{t("public_profile.skills")}</dt>
            <dd>
              {profile.skills.length ? (
                <ul className="tags">
                  {profile.skills.map((skill) => (
                    <li key={skill} className="tag">
                      {skill}
                    </li>
                  ))}
                </ul>
              ) : (
                <span className="muted">{t("public_profile.no_skills")}</span>
              )}
            </dd>
          </div>
        </dl>
      </section>
      {children}
    </div>
  );
}
