import type { LoaderFunctionArgs } from "@remix-run/node";
import { legalLoader } from "~/web/legal.server";

export { LegalDocumentPage as default, legalMeta as meta } from "~/components/accounts/legal-page";

/** The terms of use, for anyone (content/legal/terms.<lng>.md). */
export const loader = (args: LoaderFunctionArgs) => legalLoader("terms", args);
