import { IdentityBadge } from "~/components/reputation/identity-badge";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/ui/avatar";
import { formatDate } from "~/lib/format";
import { isNegotiating } from "~/lib/market-constants";
import { displayNameOf } from "~/lib/users";
import { ApplicationBadge, type Role } from "./badges";
import { RatingSummary } from "~/components/reputation/rating";
import type { ApplicationJson } from "~/services/marketplace/applications.server";
import { Tags } from "~/components/ui/tags";
import { Price, type PriceBasis } from "./price";

/**
 * An application as the lists show it: the API's shape without the letters, but for the cover
 * letter's opening where the merchant compares the candidates of one opportunity.
 */
export type ApplicationCardData = Omit<ApplicationJson, "cover_letter" | "rejection_message"> & {
  cover_letter?: string;
};

export function Terms({ price, days, basis }: { price: number; days: number; basis: PriceBasis }) {
  const { t } = useTranslation("market");
  return (
    <span className="terms">
      <Price cents={price} basis={basis} />
      <span className="muted"> · {t("applications.days", { count: days })}</span>
    </span>
  );
}

/**
 * One application in a list, as its viewer reads it: a merchant sees who applied, a freelancer
 * the opportunity and its merchant; whoever's turn it is gets the button to answer.
 */
export function ApplicationCard({
  item,
  viewer,
  showOpportunity = true,
}: {
  item: ApplicationCardData;
  viewer: Role;
  showOpportunity?: boolean;
}) {
  const { t, i18n } = useTranslation("market");
  const negotiating = isNegotiating(item.status);
  const yourTurn = negotiating && item.awaiting === viewer;
  const person =
    viewer === "merchant"
      ? {
          full_name: item.freelancer.full_name,
          display_name: item.freelancer.display_name,
          photo_url: item.freelancer.photo_url,
        }
      : {
          full_name: item.opportunity.merchant.display_name ?? "?",
          display_name: null,
          photo_url: item.opportunity.merchant.photo_url,
        };
  return (
    <article className={`card app-card${yourTurn ? " app-card-turn" : ""}`}>
      <Avatar user={person} size="md" />
      <div className="app-card-body">
        {viewer === "merchant" ? (
          <>
            <h3 className="app-card-title">
              <Link to={`/applications/${item.id}`}>{displayNameOf(item.freelancer)}</Link>{" "}
              <IdentityBadge verified={item.freelancer.identity_verified} />
            </h3>
            <p className="app-card-sub">
              {item.freelancer.rating ? (
                <>
                  <RatingSummary rating={item.freelancer.rating} /> ·{" "}
                </>
              ) : null}
              {item.freelancer.completed_contracts !== undefined ? (
                <>
                  <span className="app-card-contracts">
                    {t("applications.completed_contracts", { count: item.freelancer.completed_contracts })}
                  </span>{" "}
                  ·{" "}
                </>
              ) : null}
              <Link to={`/freelancers/${item.freelancer.id}`} className="plain-link">
                {t("profile_link.freelancer")}
              </Link>
            </p>
            {!showOpportunity && item.cover_letter ? <p className="app-card-letter">{item.cover_letter}</p> : null}
            {showOpportunity ? (
              <p className="app-card-sub">
                <Link to={`/opportunities/${item.opportunity.uuid}`} className="plain-link">
                  {item.opportunity.title}
                </Link>
              </p>
            ) : (
              <Tags items={item.freelancer.skills.slice(0, 5)} small />
            )}
          </>
        ) : (
          <>
            <h3 className="app-card-title">
              <Link to={`/applications/${item.id}`}>{item.opportunity.title}</Link>
            </h3>
            <p className="app-card-sub">{t("my_applications.by", { name: item.opportunity.merchant.display_name })}</p>
          </>
        )}
        <div className="app-card-meta">
          <ApplicationBadge application={item} viewer={viewer} />
          <Terms price={item.price_cents} days={item.delivery_days} basis={item.opportunity.budget_type} />
          <span className="muted small">
            {t("applications.updated", { date: formatDate(item.updated_at, i18n.language) })}
          </span>
        </div>
      </div>
      <div className="app-card-actions">
        {negotiating ? (
          <Link
            to={`/applications/${item.id}/negotiate`}
            className={`btn btn-sm ${yourTurn ? "btn-primary" : "btn-secondary"}`}
          >
            {t("applications.negotiate")}
          </Link>
        ) : null}
        <Link to={`/applications/${item.id}`} className="btn btn-sm btn-ghost">
          {t("applications.open")}
        </Link>
      </div>
    </article>
  );
}
