import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Field, FormMessage, SelectField } from "~/components/ui/form";
import { EmptyState } from "~/components/ui/page-header";
import { Pagination, type PageMeta } from "~/components/ui/pagination";
import { MAX_SUSPENSION_DAYS } from "~/lib/moderation";
import type { FormErrorData } from "~/web/errors.server";

// The console's list frame: a GET filter form (FilterForm with FilterSelect / FilterInput), the
// rows in a table (TableCard) or cards, the empty state and the pagination (ListFrame); on a
// detail page, the action panel (ActionPanel with ChoiceField, DaysField and ui/form's fields).

/** The filters of a console list: a search form whose fields are the children; "clear" while any is set. */
export function FilterForm({ active = false, children }: { active?: boolean; children: ReactNode }) {
  const { t } = useTranslation("admin");
  return (
    <Form method="get" className="card admin-filters" role="search" aria-label={t("audit.filters")}>
      {children}
      <div className="filters-actions">
        {active ? (
          <Link to="?" className="btn btn-ghost">
            {t("audit.clear")}
          </Link>
        ) : null}
        <button type="submit" className="btn btn-primary">
          {t("audit.apply")}
        </button>
      </div>
    </Form>
  );
}

/** A console list's rows (when there are any, else the empty state) and its pagination. */
export function ListFrame({
  count,
  empty,
  meta,
  children,
}: {
  count: number;
  empty: string;
  meta: PageMeta;
  children: ReactNode;
}) {
  return (
    <>
      {count ? children : <EmptyState title={empty} />}
      <Pagination meta={meta} />
    </>
  );
}

/** A labelled select of a GET filter form: the empty option means "any" (none without `anyLabel`). */
export function FilterSelect(props: {
  name: string;
  label: string;
  options: { value: string; label: string }[];
  value?: string;
  anyLabel?: string;
  error?: string;
}) {
  return <SelectField {...props} id={`f-${props.name}`} />;
}

/** A labelled input of a GET filter form. */
export function FilterInput({
  value,
  type = "text",
  ...props
}: {
  name: string;
  label: string;
  value?: string;
  error?: string;
  type?: string;
}) {
  return <Field {...props} id={`f-${props.name}`} type={type} defaultValue={value ?? ""} />;
}

/** A table in a card that scrolls sideways on a phone rather than squeezing its columns. */
export function TableCard({
  caption,
  columns,
  children,
}: {
  caption: string;
  /** The header row's column names, when the table has one. */
  columns?: string[];
  children: ReactNode;
}) {
  return (
    // A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="card table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table className="admin-table">
        <caption className="sr-only">{caption}</caption>
        {columns ? (
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
        ) : null}
        {children}
      </table>
    </div>
  );
}

/**
 * The console's action panel on a detail page: a card with its title and intro, the refusal's
 * message, and a form (fields as children) with one submit button.
 */
export function ActionPanel({
  name,
  title,
  intro,
  notice,
  intent,
  refusal,
  submit,
  secondary = false,
  busy,
  children,
}: {
  name: string;
  title: string;
  intro?: string;
  /** Said between the intro and the form (what the decision moves, for instance). */
  notice?: ReactNode;
  /** The hidden `intent` of a page with several forms. */
  intent?: string;
  refusal: FormErrorData | null | undefined;
  submit: string;
  secondary?: boolean;
  busy: boolean;
  children: ReactNode;
}) {
  return (
    <section className="card form-card admin-section" aria-labelledby={`${name}-title`}>
      <h3 id={`${name}-title`}>{title}</h3>
      {intro ? <p className="muted small">{intro}</p> : null}
      {notice}
      <FormMessage data={refusal} />
      <Form method="post" className="admin-form" noValidate>
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        {children}
        <div className="form-actions">
          <button type="submit" className={secondary ? "btn btn-secondary" : "btn btn-primary"} disabled={busy}>
            {submit}
          </button>
        </div>
      </Form>
    </section>
  );
}

/** One of several moves as radio buttons under a legend, with its error. */
export function ChoiceField({
  name,
  legend,
  choices,
  chosen,
  error,
}: {
  name: string;
  legend: string;
  choices: { value: string; label: string }[];
  chosen?: string;
  error?: string;
}) {
  return (
    <>
      <fieldset aria-describedby={error ? `${name}-error` : undefined}>
        <legend>{legend}</legend>
        {choices.map((c) => (
          <label key={c.value} className="choice-inline">
            <input type="radio" name={name} value={c.value} defaultChecked={chosen === c.value} />
            {c.label}
          </label>
        ))}
      </fieldset>
      {error ? (
        <p className="field-error" id={`${name}-error`}>
          {error}
        </p>
      ) : null}
    </>
  );
}

/** How many days a suspension lasts (seven unless typed). */
export function DaysField({ value, error }: { value?: string; error?: string }) {
  const { t } = useTranslation("admin");
  return (
    <Field
      name="days"
      label={t("reports.days")}
      hint={t("reports.days_hint")}
      type="number"
      min={1}
      max={MAX_SUSPENSION_DAYS}
      inputMode="numeric"
      defaultValue={value ?? "7"}
      error={error}
    />
  );
}
