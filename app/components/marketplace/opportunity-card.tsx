import { RatingSummary, type RatingData } from "~/components/reputation/rating";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { dateTimeFormat, formatDate } from "~/lib/format";
import { formatRange } from "~/lib/money";
import { ApplicationStatusBadge, OpportunityStatusBadge, type Role } from "./badges";
import { Tags } from "~/components/ui/tags";

export type OpportunityCardData = {
  uuid: string;
  title: string;
  description: string;
  category: string;
  skills: string[];
  budget_type: string;
  budget_min_cents: number;
  budget_max_cents: number;
  deadline: string | null;
  location_type: string;
  city: string | null;
  vacancies: number;
  status: string;
  applications_count: number;
  accepted_count: number;
  created_at: string;
  awaiting_count?: number;
  my_application?: { id: string; status: string; awaiting?: Role | null } | null;
  merchant?: { id: string; display_name: string | null; photo_url?: string | null; rating?: RatingData };
};

/** A deadline is a calendar date: shown as it is, never shifted by a time zone. */
export function formatDay(date: string, locale: string) {
  const [y, m, d] = date.slice(0, 10).split("-").map(Number);
  return dateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(Date.UTC(y!, m! - 1, d!)));
}

export function Budget({
  item,
}: {
  item: Pick<OpportunityCardData, "budget_type" | "budget_min_cents" | "budget_max_cents">;
}) {
  const { t, i18n } = useTranslation("market");
  return (
    <span className="budget">
      {formatRange(item.budget_min_cents, item.budget_max_cents, i18n.language)}
      <small>{t(`budget_suffix.${item.budget_type}`)}</small>
    </span>
  );
}

/** Where the work is done: remote, or the kind of place with its city. */
export function usePlace(o: Pick<OpportunityCardData, "location_type" | "city">) {
  const { t } = useTranslation("market");
  const kind = t(`location_types.${o.location_type}`);
  return o.location_type === "remote" || !o.city ? kind : `${kind} · ${o.city}`;
}

/** What the signed-in and the visitors' cards both show. */
type CardItem = Omit<OpportunityCardData, "uuid" | "status" | "applications_count" | "accepted_count" | "merchant">;

/** A card's top (category, kind of budget, `badge`, the budget), its title leading `to` its page, description and skills. */
export function CardSummary({ item, to, badge }: { item: CardItem; to: string; badge?: ReactNode }) {
  const { t } = useTranslation("market");
  return (
    <>
      <div className="opp-card-top">
        <div className="opp-card-tags">
          <span className="tag tag-category">{t(`categories.${item.category}`)}</span>
          <span className="tag">{t(`budget_types.${item.budget_type}`)}</span>
          {badge}
        </div>
        <Budget item={item} />
      </div>
      <h3 className="opp-card-title">
        <Link to={to}>{item.title}</Link>
      </h3>
      <p className="opp-card-desc">{item.description}</p>
      <Tags items={item.skills} />
    </>
  );
}

/** A card's facts: where, the deadline, when it was published, then the viewer's own (`children`). */
export function CardFacts({ item, children }: { item: CardItem; children?: ReactNode }) {
  const { t, i18n } = useTranslation("market");
  const place = usePlace(item);
  return (
    <ul className="meta-list">
      <li>{place}</li>
      <li>
        {item.deadline ? t("list.deadline", { date: formatDay(item.deadline, i18n.language) }) : t("list.no_deadline")}
      </li>
      <li>{t("list.published", { date: formatDate(item.created_at, i18n.language) })}</li>
      {children}
    </ul>
  );
}

export function OpportunityCard({ item, viewer }: { item: OpportunityCardData; viewer: Role }) {
  const { t } = useTranslation("market");
  return (
    <article className="card opp-card">
      <CardSummary
        item={item}
        to={`/opportunities/${item.uuid}`}
        badge={viewer === "merchant" || item.status !== "open" ? <OpportunityStatusBadge status={item.status} /> : null}
      />
      <CardFacts item={item}>
        {viewer === "freelancer" && item.merchant?.rating ? (
          <li>
            {item.merchant.display_name} · <RatingSummary rating={item.merchant.rating} />
          </li>
        ) : null}
        {viewer === "merchant" ? (
          <li>{t("list.hired", { accepted: item.accepted_count, vacancies: item.vacancies })}</li>
        ) : null}
      </CardFacts>
      <div className="opp-card-foot">
        {viewer === "merchant" ? (
          <div className="opp-card-counts">
            <Link to={`/opportunities/${item.uuid}/applications`} className="link">
              {t("list.applications", { count: item.applications_count })}
            </Link>
            {item.awaiting_count ? (
              <Link to={`/opportunities/${item.uuid}/applications?status=pending`} className="badge awaiting-pill">
                {t("list.awaiting", { count: item.awaiting_count })}
              </Link>
            ) : null}
          </div>
        ) : item.my_application ? (
          <div className="opp-card-counts">
            <span className="muted small">{t("list.your_application")}:</span>
            <Link to={`/applications/${item.my_application.id}`} className="plain-link">
              <ApplicationStatusBadge
                status={item.my_application.status}
                awaiting={item.my_application.awaiting}
                viewer="freelancer"
              />
            </Link>
          </div>
        ) : (
          <span className="muted small">{t("list.applications", { count: item.applications_count })}</span>
        )}
        <Link to={`/opportunities/${item.uuid}`} className="btn btn-secondary btn-sm">
          {t("list.view")}
        </Link>
      </div>
    </article>
  );
}
