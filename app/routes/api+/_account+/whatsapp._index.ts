import { addNumber, getNumber, removeNumber, requireWhatsapp } from "~/services/messaging/whatsapp.server";
import { apiRoute } from "~/web/api-route.server";
import { whileWhatsappOn } from "~/web/whatsapp.server";

export const { loader, action } = whileWhatsappOn(
  apiRoute({
    /** The account's WhatsApp number: `{ data: { phone, status, confirmed_at, code_expires_at } | null }`. */
    GET: {
      handle: async ({ user }) => {
        requireWhatsapp();
        return { data: await getNumber(user) };
      },
    },
    /**
     * `{ phone }` (E.164, or a Brazilian number as people write it) → 201 `{ data }`, and a 6-digit
     * code sent to it. 422 naming the phone, 429 past 3 codes in an hour, 502 when WhatsApp fails.
     */
    POST: {
      body: "json",
      status: 201,
      message: "whatsapp_code_sent",
      handle: async ({ user, body }) => ({ data: await addNumber(user, body) }),
    },
    /** Forgets the number; 404 without one. */
    DELETE: {
      message: "whatsapp_number_removed",
      handle: async ({ user }) => {
        await removeNumber(user);
        return {};
      },
    },
  }),
);
