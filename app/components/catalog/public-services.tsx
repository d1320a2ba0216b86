import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { IdentityBadge } from "~/components/reputation/identity-badge";
import { RatingSummary } from "~/components/reputation/rating";
import { FiltersToggle } from "~/components/marketplace/opportunity-list";
import { Field, SelectField } from "~/components/ui/form";
import { formatMoney } from "~/lib/money";
import { CATEGORIES } from "~/lib/market-constants";
import { SERVICE_LIMITS, SERVICE_SORTS } from "~/lib/service-schemas";
import type { PublicServiceItem } from "~/services/catalog/public-services.server";

/** The minimum ratings the catalogue filters on (whole stars, as the service layer takes them). */
const MIN_RATINGS = ["4", "3", "2", "1"] as const;

/**
 * The catalogue's filter bar: a GET form, so every search is a URL, shareable and working without
 * JavaScript (the price in reais, as typed). Submitting it starts again from page 1.
 */
export function ServiceFilters({
  filters,
  errors,
}: {
  filters: Record<string, string>;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation("services");
  const { t: tm } = useTranslation("market");
  const active = Object.keys(filters).some((k) => k !== "page" && k !== "sort");
  const advanced = Object.keys(filters).some((k) => !["page", "sort", "q"].includes(k));
  return (
    <Form method="get" className="card filters" role="search" aria-label={tm("filters.label")}>
      <div className="filters-search">
        <Field
          id="s-q"
          name="q"
          type="search"
          label={tm("filters.q")}
          defaultValue={filters.q ?? ""}
          placeholder={t("public.q_placeholder")}
          maxLength={200}
          error={errors.q}
        />
        <SelectField
          id="s-sort"
          name="sort"
          label={tm("filters.sort")}
          value={filters.sort ?? (filters.q?.trim() ? "relevance" : "newest")}
          options={SERVICE_SORTS.map((value) => ({ value, label: t(`public.sorts.${value}`) }))}
          error={errors.sort}
        />
      </div>
      <FiltersToggle open={advanced || Object.keys(errors).length > 0} />
      <div className="filters-grid filters-grid-services">
        <SelectField
          id="s-category"
          name="category"
          label={tm("filters.category")}
          anyLabel={tm("filters.any")}
          value={filters.category}
          options={CATEGORIES.map((value) => ({ value, label: tm(`categories.${value}`) }))}
          error={errors.category}
        />
        <Field
          id="s-max-price"
          name="max_price"
          label={t("public.max_price")}
          inputMode="decimal"
          defaultValue={filters.max_price ?? ""}
          placeholder="0,00"
          error={errors.max_price}
        />
        <Field
          id="s-max-days"
          name="max_days"
          type="number"
          min={SERVICE_LIMITS.delivery_days.min}
          max={SERVICE_LIMITS.delivery_days.max}
          label={t("public.max_days")}
          defaultValue={filters.max_days ?? ""}
          error={errors.max_days}
        />
        <SelectField
          id="s-min-rating"
          name="min_rating"
          label={t("public.min_rating")}
          anyLabel={t("public.min_rating_any")}
          value={filters.min_rating}
          options={MIN_RATINGS.map((value) => ({
            value,
            label: t("public.min_rating_at_least", { count: Number(value) }),
          }))}
          error={errors.min_rating}
        />
        <div className={`field field-check${errors.verified ? " has-error" : ""}`}>
          <label className="check">
            <input type="checkbox" name="verified" value="1" defaultChecked={filters.verified === "1"} />{" "}
            {tm("identity.filter")}
          </label>
        </div>
        <div className="filters-actions">
          {active ? (
            <Link to="?" className="btn btn-ghost">
              {tm("filters.clear")}
            </Link>
          ) : null}
          <button type="submit" className="btn btn-primary">
            {tm("filters.apply")}
          </button>
        </div>
      </div>
    </Form>
  );
}

/** A service in the catalogue: what it is, by whom, from how much and how soon, leading to its page. */
export function PublicServiceCard({ item }: { item: PublicServiceItem }) {
  const { t, i18n } = useTranslation("services");
  const { t: tm } = useTranslation("market");
  return (
    <article className={`card opp-card service-card${item.cover_url ? " has-cover" : ""}`}>
      {/* The title's link beside it names the service: the picture adds nothing to read out. */}
      {item.cover_url ? <img src={item.cover_url} alt="" className="service-card-cover" loading="lazy" /> : null}
      <div className="service-card-body">
        <div className="opp-card-top">
          <div className="opp-card-tags">
            <span className="tag tag-category">{tm(`categories.${item.category}`)}</span>
          </div>
          <span className="budget">
            <small>{t("public.from")}</small> {formatMoney(item.price_from_cents, i18n.language)}
          </span>
        </div>
        <h3 className="opp-card-title">
          <Link to={item.path}>{item.title}</Link>
        </h3>
        <ul className="meta-list">
          <li>
            {t("public.by", { name: item.freelancer.name })}{" "}
            <IdentityBadge verified={item.freelancer.identity_verified} />
          </li>
          <li>{t("public.delivery_days", { count: item.delivery_days_min })}</li>
          {item.rating.count > 0 ? (
            <li>
              <RatingSummary rating={item.rating} />
            </li>
          ) : null}
        </ul>
      </div>
    </article>
  );
}
