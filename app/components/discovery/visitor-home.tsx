import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { PublicOpportunityItem } from "~/services/discovery/public.server";
import { BROWSE, PublicFrame, registerHref } from "./public-frame";
import { PublicOpportunityCard } from "./public-lists";

/**
 * The home of a visitor (`/` without a session): what Freela is, the ways to browse (the open
 * opportunities and the freelancers, when public pages are on), the newest opportunities, and a
 * way in. Signed in, `/` is the account's list as always.
 */
export function VisitorHome({ latest, browse }: { latest: PublicOpportunityItem[]; browse: boolean }) {
  const { t } = useTranslation();
  return (
    <PublicFrame signedIn={false} here="/">
      <section className="card home-hero">
        <h1>{t("home.title")}</h1>
        <p className="muted">{t("home.intro")}</p>
        <div className="button-row">
          {browse ? (
            BROWSE.map((link, i) => (
              <Link key={link.to} to={link.to} className={i === 0 ? "btn btn-primary" : "btn btn-secondary"}>
                {t(link.home)}
              </Link>
            ))
          ) : (
            <Link to="/register" className="btn btn-primary">
              {t("public.register")}
            </Link>
          )}
        </div>
      </section>
      <div className="home-cards">
        {(["freelancer", "merchant"] as const).map((type) => (
          <section key={type} className="card">
            <h2>{t(`home.${type}_title`)}</h2>
            <p className="muted">{t(`home.${type}_text`)}</p>
            <Link to={registerHref("/", type)} className="link">
              {t(`home.${type}_cta`)}
            </Link>
          </section>
        ))}
      </div>
      {latest.length ? (
        <section aria-labelledby="latest-title" className="stack">
          <div className="row-between">
            <h2 id="latest-title">{t("home.latest")}</h2>
            <Link to="/vagas" className="link">
              {t("home.see_all")}
            </Link>
          </div>
          <div className="opp-list">
            {latest.map((item) => (
              <PublicOpportunityCard key={item.uuid} item={item} />
            ))}
          </div>
        </section>
      ) : null}
    </PublicFrame>
  );
}
