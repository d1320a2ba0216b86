import type { UserRow } from "../../db/schema";
import type { Operation } from "~/services/platform/roles.server";
import type { ApiMethod } from "./api-route.server";

/**
 * The API declaration of a move without a body on one record named by the path
 * (`/api/<records>/:<param>/<move>`): the id checked (404 with `notFound`), the role rule of `may`,
 * then `move(user, id)`, whose result (the record as it is now) is the answer, with `message`.
 */
export function recordMove(
  param: string,
  move: (user: UserRow, id: string) => Promise<unknown>,
  { may, message, notFound = "not_found" }: { may: Operation; message: string; notFound?: string },
): ApiMethod {
  return {
    may,
    ids: { [param]: notFound },
    message,
    handle: async ({ user, params }) => ({ data: await move(user, params[param]!) }),
  };
}
