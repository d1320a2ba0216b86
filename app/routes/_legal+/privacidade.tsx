import type { LoaderFunctionArgs } from "@remix-run/node";
import { legalLoader } from "~/web/legal.server";

export { LegalDocumentPage as default, legalMeta as meta } from "~/components/accounts/legal-page";

/** The privacy policy, for anyone (content/legal/privacy.<lng>.md). */
export const loader = (args: LoaderFunctionArgs) => legalLoader("privacy", args);
