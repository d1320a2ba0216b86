import type { TFunction } from "i18next";
import type { ZodError, ZodTypeAny, z } from "zod";
import { isUniqueViolation } from "../../../db/dialect";

/**
 * A refusal the user should see. `key` and the field errors are message keys of
 * the `messages` namespace, translated at the door (Portuguese for the API,
 * the visitor's language for pages). `body`: fields the answer carries beside the message
 * (a `code` a client can act on, when a limit lifts).
 */
export class AppError extends Error {
  constructor(
    public status: number,
    public key: string,
    public fieldErrors?: Record<string, string>,
    public params?: Record<string, unknown>,
    public headers?: HeadersInit,
    public body?: Record<string, unknown>,
  ) {
    super(key);
  }
}

/**
 * Runs `write`, where a unique index of `table` has the last word on a record that may exist
 * once (one application per freelancer, one review per side): the loser of a race, whose insert
 * the index refuses, gets `refusal` instead of a database error.
 */
export async function oneOnly<T>(table: string, refusal: AppError, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, table)) throw refusal;
    throw error;
  }
}

export function fieldErrorsOf(error: ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

/** Parses input with a schema, or throws a 422 with one message key per field. */
export function parseInput<S extends ZodTypeAny>(
  schema: S,
  input: unknown,
  messageKey = "validation_failed",
): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new AppError(422, messageKey, fieldErrorsOf(result.error));
  return result.data;
}

export function describeError(error: AppError, t: TFunction) {
  const errors = error.fieldErrors
    ? Object.fromEntries(Object.entries(error.fieldErrors).map(([field, key]) => [field, t(key, error.params)]))
    : undefined;
  return { message: t(error.key, error.params), ...(errors ? { errors } : {}), ...error.body };
}
