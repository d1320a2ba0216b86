import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { fileRoute } from "~/web/errors.server";
import { notaXmlResponse } from "~/web/notas.server";

/** A nota's XML, to its provider or taker (anyone else, or a nota without XML: 404). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return fileRoute(() => notaXmlResponse(user, params.id ?? ""));
}
