import { confirmNumber } from "~/services/messaging/whatsapp.server";
import { apiRoute } from "~/web/api-route.server";
import { whileWhatsappOn } from "~/web/whatsapp.server";

export const { loader, action } = whileWhatsappOn(
  apiRoute({
    /** `{ code }` → `{ data }` confirmed; 422 naming the code (wrong, expired), 429 after 5 tries. */
    POST: {
      body: "json",
      message: "whatsapp_confirmed",
      handle: async ({ user, body }) => ({ data: await confirmNumber(user, body) }),
    },
  }),
);
