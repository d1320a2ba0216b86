import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FieldsForm, FormCard, IntentButton, SelectField, fieldsOf } from "~/components/ui/form";
import { formatDateTime } from "~/lib/format";
import { LIMITS } from "~/lib/limits";
import { formatMoney } from "~/lib/money";
import { savedSearchListPath, type SavedFilters } from "~/lib/saved-searches";
import type { FormErrorData } from "~/web/errors.server";

/** The frequencies in the order the forms offer them (the API's values). */
export const FREQUENCIES = ["immediate", "daily", "weekly", "off"] as const;

export type SavedSearchItem = {
  id: string;
  name: string;
  filters: SavedFilters;
  frequency: string;
  last_sent_at: string | null;
};

/** A search's filters in words: “react” · Design · Remoto · a partir de R$ 500,00. */
export function useFiltersText() {
  const { t, i18n } = useTranslation("market");
  return (filters: SavedFilters) => {
    const parts: string[] = [];
    if (filters.q) parts.push(`“${filters.q}”`);
    if (filters.category) parts.push(t(`categories.${filters.category}`));
    if (filters.budget_type) parts.push(t(`budget_types.${filters.budget_type}`));
    if (filters.location_type) parts.push(t(`location_types.${filters.location_type}`));
    if (filters.budget_min_cents !== undefined) {
      parts.push(`${t("filters.budget_min")}: ${formatMoney(filters.budget_min_cents, i18n.language)}`);
    }
    if (filters.budget_max_cents !== undefined) {
      parts.push(`${t("filters.budget_max")}: ${formatMoney(filters.budget_max_cents, i18n.language)}`);
    }
    return parts.length ? parts.join(" · ") : t("saved_searches.filters_none");
  };
}

function FrequencySelect({ id, value, error }: { id: string; value?: string; error?: string }) {
  const { t } = useTranslation("market");
  return (
    <SelectField
      id={id}
      name="frequency"
      label={t("saved_searches.frequency")}
      value={value}
      options={FREQUENCIES.map((f) => ({ value: f, label: t(`saved_searches.frequencies.${f}`) }))}
      error={error}
    />
  );
}

/**
 * "Salvar busca" under the opportunity list's filters: the URL's filters go along hidden, with a
 * name and a frequency. Posts to the list page itself, which answers with the search page.
 */
export function SaveSearchForm({
  filters,
  refusal,
  suggestedName,
}: {
  filters: Record<string, string>;
  refusal: FormErrorData | null;
  suggestedName: string;
}) {
  const { t } = useTranslation("market");
  const field = fieldsOf(refusal);
  const kept = ["q", "category", "budget_type", "location_type", "budget_min", "budget_max"].filter((k) => filters[k]);
  // Folded by default (a summary line between the filters and the results; no JavaScript needed),
  // open again when the save was refused.
  return (
    <details className="card save-search" open={refusal ? true : undefined}>
      <summary className="save-search-summary">{t("saved_searches.save_title")}</summary>
      <p className="muted">{t("saved_searches.save_hint")}</p>
      <FieldsForm id="save-search-form" data={refusal} className="stack">
        <input type="hidden" name="intent" value="save_search" />
        {kept.map((name) => (
          <input key={name} type="hidden" name={name} value={filters[name]} />
        ))}
        <div className="save-search-fields">
          <Field
            {...field("name", suggestedName)}
            id="name"
            label={t("saved_searches.name")}
            maxLength={LIMITS.saved_search_name.max}
            required
          />
          <FrequencySelect
            id="frequency"
            value={refusal?.values?.frequency ?? "daily"}
            error={refusal?.errors?.frequency}
          />
          <button type="submit" className="btn btn-primary">
            {t("saved_searches.save_submit")}
          </button>
        </div>
      </FieldsForm>
    </details>
  );
}

/** One saved search on its page: what it filters, its results, and its form (name, frequency), delete. */
export function SavedSearchCard({ item, refusal }: { item: SavedSearchItem; refusal: FormErrorData | null }) {
  const { t, i18n } = useTranslation("market");
  const describe = useFiltersText();
  const mine = refusal?.values?.id === item.id ? refusal : null;
  const field = fieldsOf(mine);
  const prefix = `s-${item.id}-`;
  return (
    <FormCard
      name={`search-${item.id}`}
      title={item.name}
      intro={describe(item.filters)}
      refusal={mine}
      idPrefix={prefix}
      intent="update"
      heading="h2"
      className="card saved-search"
      footer={
        <div className="saved-search-actions">
          <Link to={savedSearchListPath(item.filters)} className="btn btn-secondary">
            {t("saved_searches.results")}
            <span className="visually-hidden">: {item.name}</span>
          </Link>
          <IntentButton intent="delete" fields={{ id: item.id }} className="btn btn-danger-ghost">
            {t("saved_searches.delete")}
            <span className="visually-hidden">: {item.name}</span>
          </IntentButton>
        </div>
      }
    >
      <p className="muted">
        {item.last_sent_at
          ? t("saved_searches.last_sent", { date: formatDateTime(item.last_sent_at, i18n.language) })
          : t("saved_searches.never_sent")}
      </p>
      <input type="hidden" name="id" value={item.id} />
      <div className="save-search-fields">
        <Field
          {...field("name", item.name)}
          id={`${prefix}name`}
          label={t("saved_searches.name")}
          maxLength={LIMITS.saved_search_name.max}
          required
        />
        <FrequencySelect
          id={`${prefix}frequency`}
          value={mine?.values?.frequency ?? item.frequency}
          error={mine?.errors?.frequency}
        />
        <button type="submit" className="btn btn-primary">
          {t("saved_searches.save_changes")}
          <span className="visually-hidden">: {item.name}</span>
        </button>
      </div>
    </FormCard>
  );
}
