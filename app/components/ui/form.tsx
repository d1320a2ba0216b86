import { Form, useActionData, useSearchParams, type FormProps } from "@remix-run/react";
import {
  useEffect,
  useRef,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import { useClearOnSuccess, usePending } from "~/lib/pending";
import type { FormErrorData } from "~/web/errors.server";

/**
 * What every field has: its name (and id, by default the name), its label, its error or hint;
 * and what stands beside it, before the label (a photo field's current picture).
 */
type FieldBase = { name: string; label: string; error?: string; hint?: ReactNode; id?: string; beside?: ReactNode };

/** The attributes that tie a control to its frame: id, name, and what announces its error or hint. */
type ControlAttrs = { id: string; name: string; "aria-invalid"?: true; "aria-describedby"?: string };

/** A field's frame apart from the rest of its props (those of its control). */
function framed<P extends FieldBase>({ name, label, error, hint, id = name, beside, ...control }: P) {
  return [{ name, label, error, hint, id, beside }, control] as const;
}

/** Label above, the control (drawn by `children` with its attributes), then its error (or hint) announced with it. */
function FieldFrame({
  name,
  label,
  error,
  hint,
  id,
  beside,
  children,
}: FieldBase & { id: string; children: (attrs: ControlAttrs) => ReactNode }) {
  const field = (
    <>
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        name,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": error ? `${id}-error` : hint ? `${id}-hint` : undefined,
      })}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </>
  );
  return beside ? (
    <div className={`field field-beside${error ? " has-error" : ""}`}>
      {beside}
      <div>{field}</div>
    </div>
  ) : (
    <div className={`field${error ? " has-error" : ""}`}>{field}</div>
  );
}

export function Field(props: FieldBase & InputHTMLAttributes<HTMLInputElement>) {
  const [field, input] = framed(props);
  return <FieldFrame {...field}>{(attrs) => <input {...attrs} {...input} />}</FieldFrame>;
}

export function TextAreaField(props: FieldBase & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const [field, area] = framed(props);
  return <FieldFrame {...field}>{(attrs) => <textarea {...attrs} {...area} />}</FieldFrame>;
}

type SelectProps = FieldBase & {
  options: readonly { value: string; label: string }[];
  /** Selected at first; none selects the empty option. */
  value?: string;
  /** An empty first option that cannot be chosen again ("Selecione"). */
  placeholder?: string;
  /** An empty first option that can be chosen ("Qualquer"). */
  anyLabel?: string;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "defaultValue">;

export function SelectField(props: SelectProps) {
  const [field, { options, value, placeholder, anyLabel, ...select }] = framed(props);
  return (
    <FieldFrame {...field}>
      {(attrs) => (
        <select {...attrs} defaultValue={value ?? ""} {...select}>
          {placeholder ? (
            <option value="" disabled>
              {placeholder}
            </option>
          ) : anyLabel !== undefined ? (
            <option value="">{anyLabel}</option>
          ) : null}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/** One of a few choices, as radio buttons under their legend, with its error announced with them. */
export function ChoiceField({
  name,
  label,
  options,
  defaultValue,
  error,
  id = name,
}: {
  name: string;
  label: string;
  options: readonly { value: string; label: ReactNode }[];
  defaultValue?: string;
  error?: string;
  id?: string;
}) {
  return (
    <fieldset
      id={id}
      className={`field choice-group${error ? " has-error" : ""}`}
      aria-describedby={error ? `${id}-error` : undefined}
    >
      <legend>{label}</legend>
      <div className="choices">
        {options.map((o) => (
          <label key={o.value} className="choice">
            <input type="radio" name={name} value={o.value} defaultChecked={defaultValue === o.value} />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * Ties fields to a refused form: `field("message")` is the field's name, what the user typed
 * (else `fallback`, e.g. the stored value) and its error, so nothing typed is lost.
 */
export function fieldsOf(data: FormErrorData | null | undefined) {
  return (name: string, fallback?: string) => ({
    name,
    defaultValue: data?.values?.[name] ?? fallback,
    error: data?.errors?.[name],
  });
}

/** The action's refusal when it belongs to the form posting `intent` (with no intent: any refusal). */
export function useRefusal(intent?: string): FormErrorData | null {
  const data = useActionData<FormErrorData>();
  if (!data) return null;
  return intent === undefined || data.values?.intent === intent ? data : null;
}

/** The form-level notice: alert-success or alert-danger, as the product's notification state (alert-success / alert-danger). */
export function Alert({ type, children }: { type: "success" | "danger"; children: ReactNode }) {
  return (
    <div className={`alert alert-${type}`} role={type === "danger" ? "alert" : "status"}>
      {children}
    </div>
  );
}

/** The form's top message when there is one besides the field errors. */
export function FormMessage({ data }: { data?: FormErrorData | null }) {
  if (!data?.message) return null;
  return <Alert type="danger">{data.message}</Alert>;
}

/**
 * What a refused form says, at its top: the message and every field's problem, each a link to
 * its field (a field's id is its name, after `idPrefix` when a page repeats the form).
 */
function ErrorSummary({ id, data, idPrefix }: { id: string; data?: FormErrorData | null; idPrefix: string }) {
  const box = useRef<HTMLDivElement>(null);
  const errors = Object.entries(data?.errors ?? {});
  // The page reloaded without JavaScript opens at the summary (autofocus scrolls it into view);
  // with JavaScript the page stays, and the summary takes focus the same way.
  useEffect(() => {
    if (data?.message) box.current?.focus();
  }, [data]);
  if (!data?.message) return null;
  return (
    <div
      ref={box}
      className="alert alert-danger error-summary"
      role="alert"
      tabIndex={-1}
      id={`${id}-errors`}
      // eslint-disable-next-line jsx-a11y/no-autofocus -- the answer to the user's own submit, where they will read it
      autoFocus
    >
      <p className="error-summary-title">{data.message}</p>
      {errors.length ? (
        <ul>
          {errors.map(([field, message]) => (
            <li key={field}>
              <a href={`#${idPrefix}${field}`}>{message}</a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * A form of fields posted to its own page. A refusal comes back to it: the form starts with the
 * summary of every problem, which takes focus, so the page (reloaded without JavaScript) opens
 * there rather than at its top. `data` is this form's refusal (null when another form of the page
 * was refused).
 */
export function FieldsForm({
  id,
  data,
  idPrefix = "",
  action,
  clearOnSuccess = false,
  children,
  ...form
}: {
  id: string;
  data?: FormErrorData | null;
  idPrefix?: string;
  /** A form that adds something (a message, a delivery, an item): emptied once its post succeeds. */
  clearOnSuccess?: boolean;
  children: ReactNode;
} & Omit<FormProps, "id" | "method">) {
  const clear = useClearOnSuccess();
  return (
    <Form
      method="post"
      action={action}
      id={id}
      noValidate
      {...form}
      ref={clearOnSuccess ? clear.ref : undefined}
      onSubmit={(event) => {
        if (clearOnSuccess) clear.onSubmit();
        form.onSubmit?.(event);
      }}
    >
      <ErrorSummary id={id} data={data} idPrefix={idPrefix} />
      {children}
    </Form>
  );
}

/**
 * The page's own refusal, above everything: one that no form of the page shows beside itself
 * (those posting one of `shownBy`, and any form showing an error on one of `fields`).
 */
export function PageRefusal({ shownBy = [], fields = [] }: { shownBy?: string[]; fields?: string[] }) {
  const data = useActionData<FormErrorData>();
  const [params] = useSearchParams();
  // A confirmation step shows its own fields' problems, but only while it is open (`?confirm=`):
  // a post that did not come from it (a script's, an old page's) still gets the page's message.
  const inPanel = Boolean(data?.values?.intent) && params.get("confirm") === data?.values?.intent;
  const shown =
    shownBy.includes(data?.values?.intent ?? "") || (inPanel && fields.some((field) => data?.errors?.[field]));
  return <FormMessage data={shown ? null : data} />;
}

type SubmitProps = {
  /** The form is being sent: the button is disabled and says `busyLabel` if there is one. */
  busy?: boolean;
  label: ReactNode;
  busyLabel?: ReactNode;
  className?: string;
};

export function SubmitButton({ busy, label, busyLabel, className = "btn btn-primary" }: SubmitProps) {
  return (
    <button type="submit" className={className} disabled={busy}>
      {busy && busyLabel ? busyLabel : label}
    </button>
  );
}

/** The row under a form: what goes before (a cancel link), then the submit button. */
export function FormActions({ children, ...submit }: SubmitProps & { children?: ReactNode }) {
  return (
    <div className="form-actions">
      {children}
      <SubmitButton {...submit} />
    </div>
  );
}

type FormCardProps = {
  /** Names the ids: the heading is `${name}-title`. */
  name: string;
  title: ReactNode;
  intro?: ReactNode;
  /** The refusal of this form: the summary of its problems at the form's top (see FieldsForm). */
  refusal?: FormErrorData | null;
  /** Before each field's id where the page repeats the form, so the summary's links reach its fields. */
  idPrefix?: string;
  /** The hidden intent that tells this form apart from the page's others. */
  intent?: string;
  heading?: "h2" | "h3";
  className?: string;
  id?: string;
  /** Below the form, inside the card. */
  footer?: ReactNode;
  children: ReactNode;
} & Pick<FormProps, "encType" | "preventScrollReset"> &
  Pick<Parameters<typeof FieldsForm>[0], "clearOnSuccess">;

/** A card holding one form of a page: heading, intro, the form's refusal, then the form itself. */
export function FormCard({
  name,
  title,
  intro,
  refusal,
  intent,
  heading: Heading = "h3",
  className = "card",
  id,
  footer,
  children,
  encType,
  preventScrollReset,
  idPrefix,
  clearOnSuccess,
}: FormCardProps) {
  return (
    <section className={className} id={id} aria-labelledby={`${name}-title`}>
      <Heading id={`${name}-title`}>{title}</Heading>
      {intro ? <p className="muted">{intro}</p> : null}
      <FieldsForm
        id={`${name}-form`}
        data={refusal}
        idPrefix={idPrefix}
        encType={encType}
        className="stack"
        preventScrollReset={preventScrollReset}
        clearOnSuccess={clearOnSuccess}
      >
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        {children}
      </FieldsForm>
      {footer}
    </section>
  );
}

/** A one-button form posting `intent` (and the hidden `fields`), disabled while it is being sent. */
export function IntentButton({
  intent,
  fields = {},
  className = "btn btn-secondary",
  title,
  label,
  children,
}: {
  intent: string;
  fields?: Record<string, string>;
  className?: string;
  title?: string;
  /** The button's accessible name, where its words alone do not say what it acts on. */
  label?: string;
  children: ReactNode;
}) {
  const busy = usePending(intent);
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={className} aria-label={label} disabled={busy} title={title}>
        {children}
      </button>
    </Form>
  );
}
