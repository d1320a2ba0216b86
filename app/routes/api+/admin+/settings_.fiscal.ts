import { getPlatformIssuer, savePlatformIssuer } from "~/services/fiscal/issuers.server";
import { apiRoute } from "~/web/api-route.server";
import { fileOf } from "~/web/bodies.server";

export const { loader, action } = apiRoute({
  /** The platform's fiscal settings (`data: null` before the first save), never the certificate nor its password. */
  GET: { auth: "operator", handle: async () => ({ data: await getPlatformIssuer() }) },
  /**
   * The whole settings (docs/payments.md, "Notas fiscais"): multipart with the PFX in `certificate`,
   * or JSON with it in base64; `certificate_password` with it. The certificate is required the
   * first time, optional later; `version` as read (409 when it changed).
   */
  PUT: {
    auth: "operator",
    body: "json-or-certificate",
    message: "fiscal_saved",
    handle: async ({ user, body, form }) => ({
      data: await savePlatformIssuer(user, body, fileOf(form, "certificate")),
    }),
  },
});
