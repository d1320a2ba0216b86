import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  ChoiceField,
  Field,
  fieldsOf,
  FieldsForm,
  FormActions,
  SelectField,
  TextAreaField,
} from "~/components/ui/form";
import { formFields } from "~/lib/form-fields";
import { BUDGET_TYPES, CATEGORIES, LOCATION_TYPES, opportunityInputSchema } from "~/lib/market-schemas";
import type { FormErrorData } from "~/web/errors.server";
import { usePending } from "~/lib/pending";

/** The opportunity fields as the form shows them: prices in reais, skills comma-separated. */
export type OpportunityFormValues = Partial<
  Record<
    | "title"
    | "description"
    | "category"
    | "skills"
    | "budget_type"
    | "budget_min"
    | "budget_max"
    | "deadline"
    | "location_type"
    | "city"
    | "vacancies",
    string
  >
>;

/** The budget's two fields, each with its example. */
const BUDGET_BOUNDS = [
  ["budget_min", "1.000,00"],
  ["budget_max", "2.500,00"],
] as const;

export function OpportunityForm({
  values,
  data,
  submitLabel,
  busyLabel,
  cancelHref,
}: {
  values: OpportunityFormValues;
  data?: FormErrorData | null;
  submitLabel: string;
  busyLabel: string;
  cancelHref: string;
}) {
  const { t } = useTranslation("market");
  const busy = usePending();
  // What the user typed wins over what was stored, so nothing is lost on an error.
  const f = formFields(opportunityInputSchema, data, values);
  // The budget is typed in reais: its fields are the page's, not the schema's (`*_cents`).
  const price = (name: (typeof BUDGET_BOUNDS)[number][0]) => fieldsOf(data)(name, values[name] ?? "");
  return (
    <>
      <FieldsForm id="opportunity-form" data={data} className="stack opp-form">
        <fieldset className="form-section">
          <legend>{t("create.section_basics")}</legend>
          <Field {...f.title} label={t("fields.title")} hint={t("fields.title_hint")} />
          <TextAreaField
            {...f.description}
            label={t("fields.description")}
            hint={t("fields.description_hint")}
            rows={7}
          />
          <div className="grid-2">
            <SelectField
              name={f.category.name}
              label={t("fields.category")}
              placeholder={t("fields.select")}
              value={f.category.defaultValue}
              options={CATEGORIES.map((c) => ({ value: c, label: t(`categories.${c}`) }))}
              error={f.category.error}
            />
            <Field {...f.skills} label={t("fields.skills")} hint={t("fields.skills_hint")} />
          </div>
        </fieldset>
        <fieldset className="form-section">
          <legend>{t("create.section_budget")}</legend>
          <ChoiceField
            {...f.budget_type}
            label={t("fields.budget_type")}
            defaultValue={f.budget_type.defaultValue || "fixed"}
            options={BUDGET_TYPES.map((type) => ({ value: type, label: <strong>{t(`budget_types.${type}`)}</strong> }))}
          />
          <div className="grid-2">
            {BUDGET_BOUNDS.map(([name, placeholder]) => (
              <Field
                key={name}
                {...price(name)}
                label={t(`fields.${name}`)}
                hint={t("fields.budget_hint")}
                inputMode="decimal"
                placeholder={placeholder}
                required
              />
            ))}
          </div>
          <Field {...f.deadline} type="date" label={t("fields.deadline")} hint={t("fields.deadline_hint")} />
        </fieldset>
        <fieldset className="form-section">
          <legend>{t("create.section_place")}</legend>
          <div className="grid-2">
            <SelectField
              name={f.location_type.name}
              label={t("fields.location_type")}
              value={f.location_type.defaultValue || "remote"}
              options={LOCATION_TYPES.map((c) => ({ value: c, label: t(`location_types.${c}`) }))}
              error={f.location_type.error}
            />
            <Field {...f.city} label={t("fields.city")} hint={t("fields.city_hint")} autoComplete="address-level2" />
          </div>
          <Field
            {...f.vacancies}
            type="number"
            label={t("fields.vacancies")}
            hint={t("fields.vacancies_hint")}
            defaultValue={f.vacancies.defaultValue || "1"}
            className="input-short"
          />
        </fieldset>
        <FormActions busy={busy} label={submitLabel} busyLabel={busyLabel}>
          <Link to={cancelHref} className="btn btn-ghost">
            {t("actions.cancel", { ns: "common" })}
          </Link>
        </FormActions>
      </FieldsForm>
    </>
  );
}
