import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { IdentityBadge } from "./identity-badge";
import { formatDate } from "~/lib/format";
import { ProfileSheet } from "~/components/ui/profile-sheet";
import { RatingSummary, type RatingData } from "./rating";
import { ReportLink } from "~/components/ui/report-link";
import { Tags } from "~/components/ui/tags";
import { Facts, type Fact } from "~/components/ui/facts";

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
  /** "Identidade verificada": an operator checked who they are (the document is never shown). */
  identity_verified?: boolean;
};

/** The head and details of a public profile; what differs by account type comes as children. */
export function PublicProfile({
  profile,
  facts,
  actions,
  children,
  viewerId,
  here,
  hiddenReason,
}: {
  profile: PublicProfileData;
  facts?: (Fact | false | null | undefined)[];
  /** Beside the name: the owner's own links (edit, see the public page). */
  actions?: ReactNode;
  children?: ReactNode;
  /** Who reads it (anyone but its owner may report it), and the page's path to come back to. */
  viewerId: string;
  here: string;
  /** To its owner, why an operator hid the profile. */
  hiddenReason?: string | null;
}) {
  const { t, i18n } = useTranslation();
  return (
    <div className="page">
      {profile.hidden ? (
        <p className="notice notice-warning" role="status">
          {t("moderation.profile_hidden", { ns: "market" })}
          {hiddenReason ? <> {t("moderation.why", { ns: "market", reason: hiddenReason })}</> : null}
        </p>
      ) : null}
      <ProfileSheet
        person={profile}
        name={profile.name}
        action={
          actions ??
          (viewerId !== profile.id ? (
            <p>
              <ReportLink type="profile" id={profile.id} back={here} />
            </p>
          ) : null)
        }
      >
        {profile.identity_verified ? (
          <p>
            <IdentityBadge verified />
          </p>
        ) : null}
        <Facts
          className="details"
          items={[
            { label: t("profile.member_since"), value: formatDate(profile.member_since, i18n.language) },
            { label: t("reviews.rating_label", { ns: "market" }), value: <RatingSummary rating={profile.rating} /> },
            { label: t("reviews.completed_contracts", { ns: "market" }), value: profile.completed_contracts },
            profile.city ? { label: t("public_profile.city"), value: profile.city } : null,
            profile.account_type === "freelancer" && profile.remote
              ? { label: t("directory.remote_badge"), value: t("public_profile.remote") }
              : null,
            ...(facts ?? []),
            {
              label: t("public_profile.about"),
              value: profile.bio || <span className="muted">{t("public_profile.no_bio")}</span>,
              valueClass: "prewrap",
              wide: true,
            },
            // A merchant without skills listed has nothing to show there ("none" would read as a flaw).
            profile.account_type === "merchant" && !profile.skills.length
              ? null
              : {
                  label: t("public_profile.skills"),
                  value: (
                    <Tags
                      items={profile.skills}
                      empty={<span className="muted">{t("public_profile.no_skills")}</span>}
                    />
                  ),
                  wide: true,
                },
          ]}
        />
      </ProfileSheet>
      {children}
    </div>
  );
}
