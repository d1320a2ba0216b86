import type { LoaderFunctionArgs } from "@remix-run/node";
import { readDataExport } from "~/services/accounts/data-export.server";
import { AppError } from "~/services/platform/errors.server";
import { attachmentResponse } from "~/services/platform/uploads.server";
import { requireAccount } from "~/web/auth.server";
import { fileRoute } from "~/web/errors.server";
import { getRequestT } from "~/web/i18n.server";
import { UUID } from "~/services/platform/records.server";

/**
 * The link of the "your copy is ready" e-mail: the ZIP, to its owner signed in (anyone else,
 * or no such copy: 404; signed out: the sign-in page, then back here). After its 7 days: 410
 * with the reason, in the reader's language.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAccount(request);
  const { t } = await getRequestT(request);
  return fileRoute(async () => {
    if (!UUID.test(params.id ?? "")) return null;
    try {
      const file = await readDataExport(user, params.id!);
      return attachmentResponse({ ...file, contentType: "application/zip" });
    } catch (error) {
      if (error instanceof AppError && (error.status === 410 || error.status === 409)) {
        return new Response(t(error.message), {
          status: error.status,
          headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
        });
      }
      throw error;
    }
  });
}
