import { json } from "@remix-run/node";
import { withApiHeaders } from "~/web/api.server";
import { apiT } from "~/services/platform/i18n.server";

// Unknown API paths answer JSON, not the not-found page.
const notFound = async () => withApiHeaders(json({ message: apiT("not_found") }, { status: 404 }));
export const loader = notFound;
export const action = notFound;
