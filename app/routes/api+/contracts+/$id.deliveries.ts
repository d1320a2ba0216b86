import { json, type ActionFunctionArgs } from "@remix-run/node";
import { apiPost, methodNotAllowed, readJson } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { deliverContract, getContract } from "~/services/contracts/contracts.server";
import { DELIVERY_FORM, readFilesForm } from "~/web/forms.server";
import { apiT } from "~/services/platform/i18n.server";

export const loader = methodNotAllowed;

/**
 * The freelancer delivers: multipart `message` and up to 10 `files` (10 MB each, 50 MB in all),
 * or JSON `{ message }` for a delivery without files.
 */
export const action = apiPost(async ({ request, params }: ActionFunctionArgs) => {
  const user = await requireApiUser(request);
  const isJson = /json/i.test(request.headers.get("Content-Type") ?? "");
  const { values, files } = isJson
    ? { values: await readJson(request), files: [] }
    : await readFilesForm(request, DELIVERY_FORM);
  await deliverContract(user, params.id!, values, files);
  return json({ data: await getContract(user, params.id!), message: apiT("delivery_sent") }, { status: 201 });
});
