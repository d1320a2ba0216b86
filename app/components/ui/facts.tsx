import type { ReactNode } from "react";

export type Fact = {
  label: ReactNode;
  value: ReactNode;
  /** The value's class ("fact-strong" for the figures that matter most). */
  valueClass?: string;
  /** Takes the whole row. */
  wide?: boolean;
};

/** Label and value pairs (`dl.facts` on detail pages, `dl.details` on profiles); a falsy item is left out. */
export function Facts({
  items,
  className = "facts",
}: {
  items: (Fact | false | null | undefined)[];
  className?: string;
}) {
  return (
    <dl className={className}>
      {items.map((fact, i) =>
        fact ? (
          <div key={i} className={fact.wide ? "wide" : undefined}>
            <dt>{fact.label}</dt>
            <dd className={fact.valueClass}>{fact.value}</dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}
