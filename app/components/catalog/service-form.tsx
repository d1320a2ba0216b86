import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Field, FieldsForm, FormMessage, SelectField, TextAreaField } from "~/components/ui/form";
import { CATEGORIES } from "~/lib/market-constants";
import { usePending } from "~/lib/pending";
import { QUESTION_KINDS, SERVICE_LIMITS } from "~/lib/service-schemas";
import type { FormErrorData } from "~/web/errors.server";

// The freelancer's service form (/meus-servicos/novo and /meus-servicos/:id). Its lists grow and
// shrink with submit buttons (`add:<list>`, `remove:<list>:<i>`) that bring the form back with
// what was typed, so it works without JavaScript; the fields' names are the service's paths
// (`packages.1.price`, in reais), where its refusals land.

type Values = Record<string, string>;

type FieldOf = (name: string) => { name: string; defaultValue: string; error?: string };

/** One list of the form (packages, extras, FAQ, questions): its rows, each with a remove button, and the add button. */
function ListSection({
  list,
  max,
  min = 0,
  rows,
  addError,
  children,
}: {
  list: "packages" | "extras" | "faq" | "questions";
  max: number;
  /** Rows that stay: no remove button at or below it. */
  min?: number;
  rows: number;
  addError?: string;
  children: (i: number) => ReactNode;
}) {
  const { t } = useTranslation("services");
  const singular = { packages: "package", extras: "extra", faq: "faq", questions: "question" }[list];
  return (
    <fieldset className="form-section">
      <input type="hidden" name={`${list}_rows`} value={rows} />
      <legend>{t(`mine.form.${list}`)}</legend>
      <p className="field-hint">{t(`mine.form.${list}_hint`, { max })}</p>
      {Array.from({ length: rows }, (_, i) => (
        <fieldset key={i} className="form-row-group">
          <legend>{t(`mine.form.${singular}_n`, { n: i + 1 })}</legend>
          {children(i)}
          {rows > min ? (
            <button
              type="submit"
              name="intent"
              value={`remove:${list}:${i}`}
              className="btn btn-danger-ghost"
              formNoValidate
            >
              {t("mine.form.remove", { n: i + 1 })}
            </button>
          ) : null}
        </fieldset>
      ))}
      {rows < max ? (
        <div>
          <button type="submit" name="intent" value={`add:${list}`} className="btn btn-ghost" formNoValidate>
            {t(`mine.form.add_${list}`)}
          </button>
        </div>
      ) : null}
      {addError ? (
        <p className="field-error" id={`${list}_add`}>
          {addError}
        </p>
      ) : null}
    </fieldset>
  );
}

function PackageFields({ i, field }: { i: number; field: FieldOf }) {
  const { t } = useTranslation("services");
  const L = SERVICE_LIMITS;
  return (
    <>
      <Field {...field(`packages.${i}.name`)} label={t("mine.form.package_name")} />
      <TextAreaField
        {...field(`packages.${i}.includes`)}
        label={t("mine.form.package_includes")}
        hint={t("mine.form.lines_hint")}
        rows={3}
      />
      <div className="grid-3">
        <Field
          {...field(`packages.${i}.price`)}
          label={t("mine.form.price")}
          inputMode="decimal"
          placeholder="1.234,56"
        />
        <Field
          {...field(`packages.${i}.delivery_days`)}
          type="number"
          label={t("mine.form.delivery_days")}
          min={L.delivery_days.min}
          max={L.delivery_days.max}
        />
        <Field
          {...field(`packages.${i}.revisions`)}
          type="number"
          label={t("mine.form.revisions")}
          min={L.revisions.min}
          max={L.revisions.max}
        />
      </div>
    </>
  );
}

function QuestionFields({ i, field, kind, required }: { i: number; field: FieldOf; kind?: string; required: boolean }) {
  const { t } = useTranslation("services");
  return (
    <>
      <Field {...field(`questions.${i}.text`)} label={t("mine.form.question_text")} />
      <SelectField
        name={`questions.${i}.kind`}
        label={t("mine.form.question_kind")}
        value={kind || "text"}
        options={QUESTION_KINDS.map((k) => ({ value: k, label: t(`mine.form.kinds.${k}`) }))}
        error={field(`questions.${i}.kind`).error}
      />
      <TextAreaField
        {...field(`questions.${i}.choices`)}
        label={t("mine.form.question_choices")}
        hint={t("mine.form.choices_hint")}
        rows={3}
      />
      <label className="check">
        <input type="checkbox" name={`questions.${i}.required`} value="1" defaultChecked={required} />{" "}
        {t("mine.form.question_required")}
      </label>
    </>
  );
}

export function ServiceForm({
  values,
  data,
  cancelHref,
  draft = true,
  publishable = true,
}: {
  /** A draft saves as one ("Salvar rascunho"); any other state keeps its own ("Salvar alterações"). */
  draft?: boolean;
  /** "Salvar e publicar" is offered (a draft, or a paused service). */
  publishable?: boolean;
  /** The stored service as form values (empty for a new one). */
  values: Values;
  /** The action's answer: a refusal, or a step that added or removed a row. */
  data?: FormErrorData | null;
  cancelHref: string;
}) {
  const { t } = useTranslation("services");
  const busy = usePending();
  // What the form came back with wins over the stored values: nothing typed is lost.
  const shown = data?.values ?? values;
  const errors = data?.errors ?? {};
  const field: FieldOf = (name) => ({ name, defaultValue: shown[name] ?? "", error: errors[name] });
  const rows = (list: string) => Math.max(0, Number(shown[`${list}_rows`]) || 0);
  const section = (list: "packages" | "extras" | "faq" | "questions", max: number) => ({
    list,
    max,
    rows: rows(list),
    addError: errors[`${list}_add`],
  });
  return (
    // Each answer of the action is a new form: its inputs take what came back (the rows moved).
    <FieldsForm
      key={JSON.stringify(shown)}
      id="service-form"
      data={data?.errors ? data : null}
      className="stack service-form"
    >
      {data && !data.errors ? <FormMessage data={data} /> : null}
      <fieldset className="form-section">
        <legend>{t("mine.form.basics")}</legend>
        <Field {...field("title")} label={t("mine.form.title")} maxLength={SERVICE_LIMITS.title.max} />
        <SelectField
          name="category"
          label={t("mine.form.category")}
          placeholder={t("fields.select", { ns: "market" })}
          value={shown.category}
          options={CATEGORIES.map((c) => ({ value: c, label: t(`categories.${c}`, { ns: "market" }) }))}
          error={errors.category}
        />
        <TextAreaField {...field("description")} label={t("mine.form.description")} rows={7} />
        <Field {...field("skills")} label={t("mine.form.skills")} hint={t("mine.form.skills_hint")} />
      </fieldset>
      <ListSection {...section("packages", SERVICE_LIMITS.packages.max)} min={1}>
        {(i) => <PackageFields i={i} field={field} />}
      </ListSection>
      <ListSection {...section("extras", SERVICE_LIMITS.extras)}>
        {(i) => (
          <>
            <Field {...field(`extras.${i}.title`)} label={t("mine.form.extra_title")} />
            <div className="grid-2">
              <Field
                {...field(`extras.${i}.price`)}
                label={t("mine.form.price")}
                inputMode="decimal"
                placeholder="80,00"
              />
              <Field
                {...field(`extras.${i}.extra_days`)}
                type="number"
                label={t("mine.form.extra_days")}
                min={SERVICE_LIMITS.extra_days.min}
                max={SERVICE_LIMITS.extra_days.max}
              />
            </div>
          </>
        )}
      </ListSection>
      <ListSection {...section("faq", SERVICE_LIMITS.faq)}>
        {(i) => (
          <>
            <Field {...field(`faq.${i}.question`)} label={t("mine.form.faq_question")} />
            <TextAreaField {...field(`faq.${i}.answer`)} label={t("mine.form.faq_answer")} rows={3} />
          </>
        )}
      </ListSection>
      <ListSection {...section("questions", SERVICE_LIMITS.questions)}>
        {(i) => (
          <QuestionFields
            i={i}
            field={field}
            kind={shown[`questions.${i}.kind`]}
            required={shown[`questions.${i}.required`] === "1"}
          />
        )}
      </ListSection>
      <div className="form-actions">
        <Link to={cancelHref} className="btn btn-ghost">
          {t("actions.cancel", { ns: "common" })}
        </Link>
        <button type="submit" name="intent" value="save" className="btn btn-ghost" disabled={busy}>
          {t(draft ? "mine.form.save_draft" : "mine.form.save_changes")}
        </button>
        {publishable ? (
          <button type="submit" name="intent" value="save_publish" className="btn btn-primary" disabled={busy}>
            {t("mine.form.save_publish")}
          </button>
        ) : null}
      </div>
    </FieldsForm>
  );
}
