import type { ReactNode } from "react";
import { LIMITS } from "~/lib/limits";
import { Form, Link } from "@remix-run/react";
import { Field, SelectField } from "~/components/ui/form";
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

/**
 * The filter bar: a GET form, so every search, filter and sort is in the URL, shareable and
 * working without JavaScript. Submitting it starts again from page 1.
 */
export function OpportunityFilters({
  filters,
  errors,
  viewer: role,
}: {
  filters: Record<string, string>;
  errors: Record<string, string>;
  /** Whose list: a merchant filters by status too. */
  viewer: Role;
}) {
  const { t } = useTranslation("market");
  const active = Object.keys(filters).some((k) => k !== "page" && k !== "sort");
  const advanced = Object.keys(filters).some((k) => !["page", "sort", "q"].includes(k));
  // Every filter's field is `f-<name>`, its label `filters.<name>`, its value and error from the URL's.
  const choice = (name: string, values: readonly string[], labels: string, anyLabel?: string) => (
    <SelectField
      id={`f-${name}`}
      name={name}
      label={t(`filters.${name}`)}
      anyLabel={anyLabel}
      value={filters[name] ?? (name === "sort" ? (filters.q?.trim() ? "relevance" : "newest") : undefined)}
      options={values.map((value) => ({ value, label: t(`${labels}.${value}`) }))}
      error={errors[name]}
    />
  );
  const reais = (name: string) => (
    <Field
      id={`f-${name}`}
      name={name}
      label={t(`filters.${name}`)}
      inputMode="decimal"
      defaultValue={filters[name] ?? ""}
      placeholder="0,00"
      error={errors[name]}
    />
  );
  return (
    <Form method="get" className="card filters" role="search" aria-label={t("filters.label")}>
      <div className="filters-search">
        <Field
          id="f-q"
          name="q"
          type="search"
          label={t("filters.q")}
          defaultValue={filters.q ?? ""}
          placeholder={t("filters.q_placeholder")}
          maxLength={LIMITS.search.max}
          error={errors.q}
        />
        {choice("sort", SORTS, "sorts")}
      </div>
      <FiltersToggle open={advanced || Object.keys(errors).length > 0} />
      <div className={`filters-grid filters-grid-${role}`}>
        {choice("category", CATEGORIES, "categories", t("filters.any"))}
        {choice("budget_type", BUDGET_TYPES, "budget_types", t("filters.any_type"))}
        {choice("location_type", LOCATION_TYPES, "location_types", t("filters.any_type"))}
        {role === "merchant" ? choice("status", OPPORTUNITY_STATUSES, "opportunity_status", t("filters.any")) : null}
        {reais("budget_min")}
        {reais("budget_max")}
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

export function OpportunityList({ list, role, saveForm }: { list: ListData; role: Role; saveForm?: ReactNode }) {
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
          ) : (
            <>
              <Link to="/para-voce" className="btn btn-secondary">
                {t("for_you.link")}
              </Link>
              <Link to="/buscas-salvas" className="btn btn-secondary">
                {t("saved_searches.link")}
              </Link>
            </>
          )
        }
      />
      <OpportunityFilters filters={list.filters} errors={list.errors} viewer={role} />
      {saveForm}
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

/**
 * On phones a list's other filters fold behind this checkbox toggle, which needs no JavaScript;
 * `open` when some are in use or refused.
 */
export function FiltersToggle({ open }: { open: boolean }) {
  const { t } = useTranslation("market");
  return (
    <>
      <input type="checkbox" id="filters-toggle" className="filters-toggle" defaultChecked={open} />
      <label htmlFor="filters-toggle" className="filters-toggle-label">
        {t("filters.toggle")}
      </label>
    </>
  );
}
