import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/ui/avatar";
import type { PublicProfileJson } from "~/services/reputation/profiles.server";
import { RatingSummary } from "./rating";
import { Tags } from "~/components/ui/tags";

/** What a card shows of a public profile. */
export type ProfileCardData = Pick<
  PublicProfileJson,
  | "id"
  | "name"
  | "full_name"
  | "display_name"
  | "photo_url"
  | "bio"
  | "skills"
  | "city"
  | "remote"
  | "rating"
  | "completed_contracts"
>;

/** A freelancer in the directory: the whole card leads to the public profile. */
export function FreelancerCard({ person }: { person: ProfileCardData }) {
  const { t } = useTranslation();
  return (
    <li className="card person-card">
      <Avatar user={person} size="md" />
      <div className="person-body">
        <h3>
          <Link to={`/freelancers/${person.id}`} className="stretched-link">
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
        {person.bio ? <p className="person-bio">{person.bio}</p> : null}
        <Tags items={person.skills} small />
      </div>
    </li>
  );
}
