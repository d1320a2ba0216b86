import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
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
