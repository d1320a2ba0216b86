import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/ui/avatar";
import type { PublicProfileJson } from "~/services/reputation/profiles.server";
import { IdentityBadge } from "./identity-badge";
import { RatingSummary } from "./rating";
import { Tags } from "~/components/ui/tags";

/** What a card shows of a public profile. */
export type ProfileCardData = Pick<
  PublicProfileJson,
  | "id"
  | "name"
  | "photo_url"
  | "bio"
  | "skills"
  | "city"
  | "remote"
  | "rating"
  | "completed_contracts"
  | "identity_verified"
>;

/**
 * A freelancer in the directory: the whole card leads to the profile (`href`: the signed-in one
 * unless told otherwise; a visitor's directory leads to the public page).
 */
export function FreelancerCard({ person, href }: { person: ProfileCardData; href?: string }) {
  const { t } = useTranslation();
  return (
    <li className="card person-card">
      <Avatar user={{ full_name: person.name, photo_url: person.photo_url }} size="md" />
      <div className="person-body">
        <h3>
          <Link to={href ?? `/freelancers/${person.id}`} className="stretched-link">
            {person.name}
          </Link>
        </h3>
        <p className="muted person-where">
          {[person.city, person.remote ? t("directory.remote_badge") : null].filter(Boolean).join(" · ")}
        </p>
        <p className="person-where">
          <RatingSummary rating={person.rating} />
          {person.completed_contracts ? (
            <span className="muted"> · {t("directory.completed", { count: person.completed_contracts })}</span>
          ) : null}
        </p>
        {person.identity_verified ? (
          <p>
            <IdentityBadge verified />
          </p>
        ) : null}
        {person.bio ? <p className="person-bio">{person.bio}</p> : null}
        <Tags items={person.skills} small />
      </div>
    </li>
  );
}
