import { getOwnIssuer, saveOwnIssuer, switchOwnIssuing } from "~/services/fiscal/issuers.server";
import { apiRoute } from "~/web/api-route.server";
import { fileOf } from "~/web/bodies.server";

export const { loader, action } = apiRoute({
  /** The freelancer's own NFS-e settings (`issuer: null` before the first save) and whether they may have them. */
  GET: { may: "fiscal.manage", handle: async ({ user }) => ({ data: await getOwnIssuer(user) }) },
  /**
   * "Emitir minhas notas": the settings as in PUT /api/admin/settings/fiscal, and `enabled`; only
   * with a verified identity (409), and a company's own CNPJ.
   */
  PUT: {
    may: "fiscal.manage",
    body: "json-or-certificate",
    message: "fiscal_saved",
    handle: async ({ user, body, form }) => ({ data: await saveOwnIssuer(user, body, fileOf(form, "certificate")) }),
  },
  /** `{ enabled: true|false, version }`: turns the issuing of their notas on or off. */
  PATCH: {
    may: "fiscal.manage",
    body: "json",
    message: "fiscal_switched",
    handle: async ({ user, body }) => ({ data: await switchOwnIssuing(user, body) }),
  },
});
