import { Fragment, type ReactNode } from "react";
import { ConfirmLink } from "./confirm";
import { IntentButton } from "./form";

/** How a move is made from the actions card. */
export type Move = { label: string } & (
  | /** A one-button form posting this intent (and hidden `fields`). */
    { post: string; primary?: boolean; title?: string; fields?: Record<string, string> }
    /** A destructive or binding move: a link to its confirmation step (`?confirm=<intent>`); primary when it agrees to something (a hire, an approval). */
  | { confirm: string; primary?: boolean; title?: string }
  /** A move with a form of its own further down: a link to that form's heading (by id). */
  | { jump: string; primary?: boolean }
);

/**
 * The card of a record's moves (a contract's, a negotiation's): the moves `open` to the viewer,
 * in the order of `moves` (one left undefined is not offered), or `empty` when none is.
 */
export function ActionsCard<A extends string>({
  title,
  empty,
  here,
  open,
  moves,
}: {
  title: string;
  empty: string;
  /** The page's address, where the confirmation steps open. */
  here: string;
  open: readonly A[];
  moves: Partial<Record<A, Move>>;
}) {
  const shown = (Object.entries(moves) as [A, Move | undefined][]).filter(
    (entry): entry is [A, Move] => entry[1] !== undefined && open.includes(entry[0]),
  );
  return (
    <section className="card" aria-labelledby="actions-title">
      <h3 id="actions-title">{title}</h3>
      {open.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <div className="action-row">
          {shown.map(([action, move]) => (
            <Fragment key={action}>{moveControl(move, here)}</Fragment>
          ))}
        </div>
      )}
    </section>
  );
}

function moveControl(move: Move, here: string): ReactNode {
  if ("post" in move) {
    return (
      <IntentButton
        intent={move.post}
        fields={move.fields}
        className={move.primary ? "btn btn-primary" : "btn btn-secondary"}
        title={move.title}
      >
        {move.label}
      </IntentButton>
    );
  }
  if ("confirm" in move) {
    return (
      <ConfirmLink
        from={here}
        intent={move.confirm}
        className={move.primary ? "btn btn-primary" : undefined}
        title={move.title}
      >
        {move.label}
      </ConfirmLink>
    );
  }
  return (
    <a href={`#${move.jump}`} className={move.primary ? "btn btn-primary" : "btn btn-secondary"}>
      {move.label}
    </a>
  );
}
