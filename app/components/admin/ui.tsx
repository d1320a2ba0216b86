import type { ReactNode } from "react";

/** A labelled select of a GET filter form: the empty option means "any". */
export function FilterSelect({
  name,
  label,
  options,
  value,
  anyLabel,
  error,
}: {
  name: string;
  label: string;
  options: { value: string; label: string }[];
  value?: string;
  anyLabel: string;
  error?: string;
}) {
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={`f-${name}`}>{label}</label>
      <select
        id={`f-${name}`}
        name={name}
        defaultValue={value ?? ""}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `f-${name}-error` : undefined}
      >
        <option value="">{anyLabel}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      {error ? (
        <p className="field-error" id={`f-${name}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input of a GET filter form. */
export function FilterInput({
  name,
  label,
  value,
  error,
  type = "text",
}: {
  name: string;
  label: string;
  value?: string;
  error?: string;
  type?: string;
}) {
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={`f-${name}`}>{label}</label>
      <input
        id={`f-${name}`}
        name={name}
        type={type}
        defaultValue={value ?? ""}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `f-${name}-error` : undefined}
      />
      {error ? (
        <p className="field-error" id={`f-${name}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A table in a card that scrolls sideways on a phone rather than squeezing its columns. */
export function TableCard({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    // A scrolling region must be reachable by keyboard (axe: scrollable-region-focusable).
    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
    <div className="card table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table className="admin-table">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}
