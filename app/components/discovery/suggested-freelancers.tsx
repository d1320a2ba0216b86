import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { RatingSummary } from "~/components/reputation/rating";
import { Avatar } from "~/components/ui/avatar";
import type { SuggestedFreelancer } from "~/services/discovery/matches.server";

/**
 * The owner's suggestions on an open opportunity: freelancers with its skills, each leading to
 * their profile with the invitation form set to this opportunity.
 */
export function SuggestedFreelancers({ uuid, people }: { uuid: string; people: SuggestedFreelancer[] }) {
  const { t } = useTranslation("market");
  return (
    <section className="card side-card" aria-labelledby="suggested-title">
      <h3 id="suggested-title">{t("suggested.title")}</h3>
      {people.length ? (
        <>
          <p className="muted small">{t("suggested.intro")}</p>
          <ul className="suggested-list">
            {people.map((person) => {
              const href = `/freelancers/${person.id}?oportunidade=${uuid}#invite-title`;
              return (
                <li key={person.id} className="suggested-row">
                  <Avatar user={{ full_name: person.name, photo_url: person.photo_url }} size="sm" />
                  <div className="suggested-main">
                    <Link to={href}>{person.name}</Link>
                    <p className="muted small">
                      {t("suggested.in_common", { count: person.skills_in_common })} ·{" "}
                      {t("applications.completed_contracts", { count: person.completed_contracts })}
                    </p>
                    <RatingSummary rating={person.rating} />
                  </div>
                  <Link
                    to={href}
                    className="btn btn-secondary btn-sm"
                    aria-label={t("suggested.invite_label", { name: person.name })}
                  >
                    {t("suggested.invite")}
                  </Link>
                </li>
              );
            })}
          </ul>
        </>
      ) : (
        <p className="muted">{t("suggested.none")}</p>
      )}
    </section>
  );
}
