import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { AppError } from "~/services/platform/errors.server";
import { whatsappOn } from "~/services/messaging/whatsapp.server";
import { withApiHeaders } from "./api.server";
import { apiErrorResponse } from "./errors.server";

type Handlers = {
  loader: (args: LoaderFunctionArgs) => Response | Promise<Response>;
  action: (args: ActionFunctionArgs) => Response | Promise<Response>;
};

/** WhatsApp's endpoints answer 404 to everyone, before anything else, while WhatsApp is off. */
export function whileWhatsappOn(handlers: Handlers): Handlers {
  const off = (request: Request) => withApiHeaders(apiErrorResponse(new AppError(404, "not_found"), request));
  return {
    loader: async (args) => (whatsappOn() ? handlers.loader(args) : off(args.request)),
    action: async (args) => (whatsappOn() ? handlers.action(args) : off(args.request)),
  };
}
