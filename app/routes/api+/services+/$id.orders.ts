import { placeOrder } from "~/services/catalog/orders.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /**
   * A merchant buys a package: `{ package_index, extras, expected_total_cents, answers? }`. The
   * contract's id (201); 409 `service_price_changed` with the new quote when the total moved.
   */
  POST: {
    may: "service.order",
    body: "json",
    ids: { id: "not_found" },
    status: 201,
    message: "services:order_placed",
    handle: async ({ user, params, body }) => ({ data: await placeOrder(user, params.id!, body) }),
  },
});
