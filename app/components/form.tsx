import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from "react";
import type { FormErrorData } from "~/services/forms.server";

type FieldProps = {
  name: string;
  label: string;
  error?: string;
  hint?: ReactNode;
} & InputHTMLAttributes<HTMLInputElement>;

/** A labelled input whose error sits under it and is announced with it. */
export function Field({ name, label, error, hint, id = name, ...input }: FieldProps) {
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...input} />
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

type TextAreaProps = { name: string; label: string; error?: string; hint?: ReactNode } & TextareaHTMLAttributes<HTMLTextAreaElement>;

export function TextAreaField({ name, label, error, hint, id = name, ...area }: TextAreaProps) {
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name={name} aria-invalid={error ? true : undefined} aria-describedby={describedBy} {...area} />
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

/** The form-level notice: alert-success or alert-danger, as SPEC.md's notification state. */
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
