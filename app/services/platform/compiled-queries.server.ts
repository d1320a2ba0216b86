import type { CompiledQuery } from "kysely";

/**
 * A placeholder for a value bound on each use of a query compiled once and kept (the session
 * lookup, the lists): a bound parameter, never SQL text, and an object of its own, so no value
 * typed into a filter can ever be taken for it.
 */
export const standIn = (name: string) => Object.freeze({ [name]: true }) as unknown as string;

/** A kept compiled query with each stand-in in its parameters replaced by its value for this use. */
export function bindStandIns(query: CompiledQuery, ...values: (readonly [standIn: string, value: unknown])[]) {
  return {
    ...query,
    parameters: query.parameters.map((parameter) => {
      for (const [placeholder, value] of values) if (parameter === placeholder) return value;
      return parameter;
    }),
  } satisfies CompiledQuery;
}
