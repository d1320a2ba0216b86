import { Form, type FormProps } from "@remix-run/react";
import { useEffect, useRef, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from "react";
import type { FormErrorData } from "~/web/errors.server";

type FieldFrameProps = { id: string; label: string; error?: string; hint?: ReactNode };

/** Label above, the control, then its error (or hint) announced with it. */
function FieldFrame({ id, label, error, hint, children }: FieldFrameProps & { children: ReactNode }) {
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : hint ? (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function ariaFor({ id, error, hint }: Omit<FieldFrameProps, "label">) {
  return {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : hint ? `${id}-hint` : undefined,
  };
}

type FieldProps = {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
} & InputHTMLAttributes<HTMLInputElement>;

export function Field({ name, label, error, hint, id = name, ...input }: FieldProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <input id={id} name={name} {...ariaFor({ id, error, hint })} {...input} />
    </FieldFrame>
  );
}

type TextAreaProps = {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
} & TextareaHTMLAttributes<HTMLTextAreaElement>;

export function TextAreaField({ name, label, error, hint, id = name, ...area }: TextAreaProps) {
  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <textarea id={id} name={name} {...ariaFor({ id, error, hint })} {...area} />
    </FieldFrame>
  );
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
  children,
  ...form
}: { id: string; data?: FormErrorData | null; idPrefix?: string; children: ReactNode } & Omit<
  FormProps,
  "id" | "method"
>) {
  return (
    <Form method="post" action={action} id={id} noValidate {...form}>
      <ErrorSummary id={id} data={data} idPrefix={idPrefix} />
      {children}
    </Form>
  );
}
