import { LIMITS } from "~/lib/limits";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, fieldsOf, FieldsForm, FormActions, SelectField, TextAreaField } from "~/components/ui/form";
import { BUDGET_TYPES, CATEGORIES, LOCATION_TYPES } from "~/lib/market-constants";
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
  const errors = data?.errors ?? {};
  // What the user typed wins over what was stored, so nothing is lost on an error.
  const v = (field: keyof OpportunityFormValues) => data?.values?.[field] ?? values[field] ?? "";
  const field = (name: keyof OpportunityFormValues) => fieldsOf(data)(name, values[name] ?? "");
  return (
    <>
      <FieldsForm id="opportunity-form" data={data} className="stack opp-form">
        <fieldset className="form-section">
          <legend>{t("create.section_basics")}</legend>
          <Field
            {...field("title")}
            label={t("fields.title")}
            hint={t("fields.title_hint")}
            required
            maxLength={LIMITS.title.max}
          />
          <TextAreaField
            {...field("description")}
            label={t("fields.description")}
            hint={t("fields.description_hint")}
            required
            rows={7}
            maxLength={LIMITS.description.max}
          />
          <div className="grid-2">
            <SelectField
              name="category"
              label={t("fields.category")}
              placeholder={t("fields.select")}
              value={v("category")}
              options={CATEGORIES.map((c) => ({ value: c, label: t(`categories.${c}`) }))}
              error={errors.category}
            />
            <Field {...field("skills")} label={t("fields.skills")} hint={t("fields.skills_hint")} />
          </div>
        </fieldset>
        <fieldset className="form-section">
          <legend>{t("create.section_budget")}</legend>
          <fieldset id="budget_type" className={`field choice-group${errors.budget_type ? " has-error" : ""}`}>
            <legend>{t("fields.budget_type")}</legend>
            <div className="choices">
              {BUDGET_TYPES.map((type) => (
                <label key={type} className="choice">
                  <input
                    type="radio"
                    name="budget_type"
                    value={type}
                    defaultChecked={(v("budget_type") || "fixed") === type}
                  />
                  <span>
                    <strong>{t(`budget_types.${type}`)}</strong>
                  </span>
                </label>
              ))}
            </div>
            {errors.budget_type ? <p className="field-error">{errors.budget_type}</p> : null}
          </fieldset>
          <div className="grid-2">
            {BUDGET_BOUNDS.map(([name, placeholder]) => (
              <Field
                key={name}
                {...field(name)}
                label={t(`fields.${name}`)}
                hint={t("fields.budget_hint")}
                inputMode="decimal"
                placeholder={placeholder}
                required
              />
            ))}
          </div>
          <Field {...field("deadline")} type="date" label={t("fields.deadline")} hint={t("fields.deadline_hint")} />
        </fieldset>
        <fieldset className="form-section">
          <legend>{t("create.section_place")}</legend>
          <div className="grid-2">
            <SelectField
              name="location_type"
              label={t("fields.location_type")}
              value={v("location_type") || "remote"}
              options={LOCATION_TYPES.map((c) => ({ value: c, label: t(`location_types.${c}`) }))}
              error={errors.location_type}
            />
            <Field
              {...field("city")}
              label={t("fields.city")}
              hint={t("fields.city_hint")}
              maxLength={LIMITS.city.max}
              autoComplete="address-level2"
            />
          </div>
          <Field
            name="vacancies"
            type="number"
            min={1}
            max={20}
            label={t("fields.vacancies")}
            hint={t("fields.vacancies_hint")}
            defaultValue={v("vacancies") || "1"}
            error={errors.vacancies}
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
