import type { ReactNode } from "react";

/** The card of a detail page's moves (one-button forms, confirmation links), or why there are none. */
export function ActionsCard({ title, empty, children }: { title: string; empty?: string | null; children: ReactNode }) {
  return (
    <section className="card" aria-labelledby="actions-title">
      <h3 id="actions-title">{title}</h3>
      {empty ? <p className="muted">{empty}</p> : <div className="action-row">{children}</div>}
    </section>
  );
}

/** A button-looking link down to a form of the same page (by its heading's id). */
export function JumpLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <a href={`#${to}`} className="btn btn-secondary">
      {children}
    </a>
  );
}
