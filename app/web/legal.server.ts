import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { legalPage, type LegalDocument } from "~/services/accounts/terms.server";
import { getRequestT } from "./i18n.server";

/**
 * The loader of /termos and /privacidade: the document in the reader's language, for anyone.
 * Routes call it inside their own `loader` (never at module top level, where the browser build,
 * which has no server modules, would run it).
 */
export async function legalLoader(document: LegalDocument, { request }: LoaderFunctionArgs) {
  const { lng } = await getRequestT(request);
  return json(legalPage(document, lng));
}
