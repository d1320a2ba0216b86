import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/web/auth.server";
import { fileRoute } from "~/web/errors.server";
import { informeResponse } from "~/web/notas.server";

/** The signed-in freelancer's informe de rendimentos of the year, as CSV (another year or role: 404). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return fileRoute(() => informeResponse(user, user.id, params.year, "csv"));
}
