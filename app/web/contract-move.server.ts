import { getContract } from "~/services/contracts/contracts.server";
import type { ApiContext, ApiMethod, BodyKind } from "./api-route.server";

/**
 * The API declaration of a move on a contract (`/api/contracts/:id/<move>`): the contract's id
 * checked, the move made, and the contract as it is now in the answer with the move's message.
 */
export function contractMove(
  move: (ctx: ApiContext) => Promise<unknown>,
  { body = "none", status, message }: { body?: BodyKind; status?: number; message: string },
): ApiMethod {
  return {
    body,
    ids: { id: "not_found" },
    status,
    message,
    handle: async (ctx) => {
      await move(ctx);
      return { data: await getContract(ctx.user, ctx.params.id) };
    },
  };
}
