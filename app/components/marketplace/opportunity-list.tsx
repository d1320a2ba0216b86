import { LIMITS } from "~/lib/limits";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BUDGET_TYPES, CATEGORIES, LOCATION_TYPES, OPPORTUNITY_STATUSES, SORTS } from "~/lib/market-constants";
import type { Role } from "./badges";
import { OpportunityCard, type OpportunityCardData } from "./opportunity-card";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination, type PageMeta } from "~/components/ui/pagination";

type ListData = {
  data: OpportunityCardData[];
  meta: PageMeta & { total_capped?: boolean };
  filters: Record<string, string>;
  errors: Record<string, string>;
};

function Select({
  name,
  label,
  options,
  value,
  anyLabel,
  error,
}: {
  name: string;
  label: string;
  options: { value: string; label: string }[];
  value?: string;
  anyLabel?: string;
  error?: string;
}) {
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={`f-${name}`}>{label}</label>
      <select id={`f-${name}`} name={name} defaultValue={value ?? ""} aria-invalid={error ? true : undefined}>
        {anyLabel !== undefined ? <option value="">{anyLabel}</option> : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? <p className="field-error">{error}</p> : null}
    </div>
  );
}

/**
 * The filter bar: a GET form, so every search, filter and sort is in the URL, shareable and
 * working without JavaScript. Submitting it starts again from page 1.
 */
function Filters({
  filters,
  errors,
  role,
}: {
  filters: Record<string, string>;
  errors: Record<string, string>;
  role: Role;
}) {
  const { t } = useTranslation("market");
  const active = Object.keys(filters).some((k) => k !== "page" && k !== "sort");
  const advanced = Object.keys(filters).some((k) => !["page", "sort", "q"].includes(k));
  return (
    <Form method="get" className="card filters" role="search" aria-label={t("filters.label")}>
      <div className="filters-search">
        <div className={`field${errors.q ? " has-error" : ""}`}>
          <label htmlFor="f-q">{t("filters.q")}</label>
          <input
            id="f-q"
            name="q"
            type="search"
            defaultValue={filters.q ?? ""}
            placeholder={t("filters.q_placeholder")}
            maxLength={LIMITS.search.max}
          />
          {errors.q ? <p className="field-error">{errors.q}</p> : null}
        </div>
        <Select
          name="sort"
          label={t("filters.sort")}
          value={filters.sort ?? "newest"}
          options={SORTS.map((s) => ({ value: s, label: t(`sorts.${s}`) }))}
          error={errors.sort}
        />
      </div>
      {/* On phones the other filters fold behind a checkbox toggle, which needs no JavaScript. */}
      <input
        type="checkbox"
        id="filters-toggle"
        className="filters-toggle"
        defaultChecked={advanced || Object.keys(errors).length > 0}
      />
      <label htmlFor="filters-toggle" className="filters-toggle-label">
        {t("filters.toggle")}
      </label>
      <div className={`filters-grid filters-grid-${role}`}>
        <Select
          name="category"
          label={t("filters.category")}
          anyLabel={t("filters.any")}
          value={filters.category}
          options={CATEGORIES.map((c) => ({ value: c, label: t(`categories.${c}`) }))}
          error={errors.category}
        />
        <Select
          name="budget_type"
          label={t("filters.budget_type")}
          anyLabel={t("filters.any_type")}
          value={filters.budget_type}
          options={BUDGET_TYPES.map((c) => ({ value: c, label: t(`budget_types.${c}`) }))}
          error={errors.budget_type}
        />
        <Select
          name="location_type"
          label={t("filters.location_type")}
          anyLabel={t("filters.any_type")}
          value={filters.location_type}
          options={LOCATION_TYPES.map((c) => ({ value: c, label: t(`location_types.${c}`) }))}
          error={errors.location_type}
        />
        {role === "merchant" ? (
          <Select
            name="status"
            label={t("filters.status")}
            anyLabel={t("filters.any")}
            value={filters.status}
            options={OPPORTUNITY_STATUSES.map((c) => ({ value: c, label: t(`opportunity_status.${c}`) }))}
            error={errors.status}
          />
        ) : null}
        <div className={`field${errors.budget_min ? " has-error" : ""}`}>
          <label htmlFor="f-budget_min">{t("filters.budget_min")}</label>
          <input
            id="f-budget_min"
            name="budget_min"
            inputMode="decimal"
            defaultValue={filters.budget_min ?? ""}
            placeholder="0,00"
          />
          {errors.budget_min ? <p className="field-error">{errors.budget_min}</p> : null}
        </div>
        <div className={`field${errors.budget_max ? " has-error" : ""}`}>
          <label htmlFor="f-budget_max">{t("filters.budget_max")}</label>
          <input
            id="f-budget_max"
            name="budget_max"
            inputMode="decimal"
            defaultValue={filters.budget_max ?? ""}
            placeholder="0,00"
          />
          {errors.budget_max ? <p className="field-error">{errors.budget_max}</p> : null}
        </div>
        <div className="filters-actions">
          {active ? (
            <Link to="?" className="btn btn-ghost">
              {t("filters.clear")}
            </Link>
          ) : null}
          <button type="submit" className="btn btn-primary">
            {t("filters.apply")}
          </button>
        </div>
      </div>
    </Form>
  );
}

export function OpportunityList({ list, role }: { list: ListData; role: Role }) {
  const { t } = useTranslation("market");
  const filtered = Object.keys(list.filters).some((k) => k !== "page" && k !== "sort");
  return (
    <div className="page">
      <PageHeader
        title={role === "merchant" ? t("list.merchant_heading") : t("list.freelancer_heading")}
        intro={role === "merchant" ? t("list.merchant_intro") : t("list.freelancer_intro")}
        actions={
          role === "merchant" ? (
            <Link to="/opportunities/create" className="btn btn-primary">
              + {t("list.create")}
            </Link>
          ) : null
        }
      />
      <Filters filters={list.filters} errors={list.errors} role={role} />
      <p className="list-count muted" aria-live="polite">
        {list.meta.total_capped
          ? t("list.count_capped", { count: list.meta.total })
          : t("list.count", { count: list.meta.total })}
      </p>
      {list.data.length ? (
        <div className="opp-list">
          {list.data.map((item) => (
            <OpportunityCard key={item.uuid} item={item} viewer={role} />
          ))}
        </div>
      ) : (
        <EmptyState
          title={t("list.empty_title")}
          text={
            filtered
              ? t("list.empty_filtered")
              : role === "merchant"
                ? t("list.empty_merchant")
                : t("list.empty_freelancer")
          }
          action={
            role === "merchant" && !filtered ? (
              <Link to="/opportunities/create" className="btn btn-primary">
                + {t("list.create")}
              </Link>
            ) : null
          }
        />
      )}
      <Pagination meta={list.meta} />
    </div>
  );
}
