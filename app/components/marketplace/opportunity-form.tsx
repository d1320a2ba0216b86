import { LIMITS } from "~/lib/limits";
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FormMessage, TextAreaField } from "~/components/ui/form";
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

export function SelectField({
  name,
  label,
  options,
  value,
  error,
  hint,
  placeholder,
}: {
  name: string;
  label: string;
  options: { value: string; label: string }[];
  value?: string;
  error?: string;
  hint?: string;
  placeholder?: string;
}) {
  const describedBy = error ? `${name}-error` : hint ? `${name}-hint` : undefined;
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={name}>{label}</label>
      <select
        id={name}
        name={name}
        defaultValue={value ?? ""}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
      >
        {placeholder ? (
          <option value="" disabled>
            {placeholder}
          </option>
        ) : null}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p className="field-error" id={`${name}-error`}>
          {error}
        </p>
      ) : hint ? (
        <p className="field-hint" id={`${name}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

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
  return (
    <>
      <FormMessage data={data} />
      <Form method="post" className="stack opp-form" noValidate>
        <fieldset className="form-section">
          <legend>{t("create.section_basics")}</legend>
          <Field
            name="title"
            label={t("fields.title")}
            hint={t("fields.title_hint")}
            required
            maxLength={LIMITS.title.max}
            defaultValue={v("title")}
            error={errors.title}
          />
          <TextAreaField
            name="description"
            label={t("fields.description")}
            hint={t("fields.description_hint")}
            required
            rows={7}
            maxLength={LIMITS.description.max}
            defaultValue={v("description")}
            error={errors.description}
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
            <Field
              name="skills"
              label={t("fields.skills")}
              hint={t("fields.skills_hint")}
              defaultValue={v("skills")}
              error={errors.skills}
            />
          </div>
        </fieldset>
        <fieldset className="form-section">
          <legend>{t("create.section_budget")}</legend>
          <fieldset className={`field choice-group${errors.budget_type ? " has-error" : ""}`}>
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
            <Field
              name="budget_min"
              label={t("fields.budget_min")}
              hint={t("fields.budget_hint")}
              inputMode="decimal"
              placeholder="1.000,00"
              required
              defaultValue={v("budget_min")}
              error={errors.budget_min}
            />
            <Field
              name="budget_max"
              label={t("fields.budget_max")}
              hint={t("fields.budget_hint")}
              inputMode="decimal"
              placeholder="2.500,00"
              required
              defaultValue={v("budget_max")}
              error={errors.budget_max}
            />
          </div>
          <Field
            name="deadline"
            type="date"
            label={t("fields.deadline")}
            hint={t("fields.deadline_hint")}
            defaultValue={v("deadline")}
            error={errors.deadline}
          />
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
              name="city"
              label={t("fields.city")}
              hint={t("fields.city_hint")}
              maxLength={LIMITS.city.max}
              autoComplete="address-level2"
              defaultValue={v("city")}
              error={errors.city}
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
        <div className="form-actions">
          <Link to={cancelHref} className="btn btn-ghost">
            {t("actions.cancel", { ns: "common" })}
          </Link>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {busy ? busyLabel : submitLabel}
          </button>
        </div>
      </Form>
    </>
  );
}
