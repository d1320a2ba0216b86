import { AppError } from "./errors.server";

/** A check of a rule, and the refusal when it fails: the HTTP status and the message key. */
export type Check<S, P> = readonly [test: (state: S, party: P) => boolean, status: number, key: string];

/**
 * What it takes to make one move: the side that may make it (`by`; any side when left out) and
 * the checks on the record's state, in order.
 */
export type Rule<S, P> = { by?: P; checks: readonly Check<S, P>[] };

/**
 * One shape for the state machines of opportunities, applications and contracts: a table of
 * rules that both the moves (assert, before they write; their WHERE holds the same state, so a
 * change in between still ends in a 409) and the moves open now (allowed, the `allowed_actions`
 * the pages show) read.
 */
export function stateMachine<A extends string, S, P>(
  rules: Record<A, Rule<S, P>>,
  { wrongSide }: { wrongSide: readonly [status: number, key: string] },
) {
  const actions = Object.keys(rules) as A[];
  const failed = (action: A, state: S, party: P) => rules[action].checks.find(([test]) => !test(state, party));
  return {
    /** The moves open to `party` now, in the table's order (none for someone who is no side). */
    allowed(state: S, party: P | null): A[] {
      if (party === null) return [];
      return actions.filter((action) => {
        const rule = rules[action];
        return (rule.by === undefined || rule.by === party) && !failed(action, state, party);
      });
    },
    /** Refuses the move: the wrong side first, then the first check that fails. */
    assert(action: A, state: S, party: P, params?: Record<string, unknown>) {
      const rule = rules[action];
      if (rule.by !== undefined && rule.by !== party) throw new AppError(wrongSide[0], wrongSide[1]);
      const check = failed(action, state, party);
      if (check) throw new AppError(check[1], check[2], undefined, params);
    },
  };
}
