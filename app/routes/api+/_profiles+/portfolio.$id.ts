import { json, type ActionFunctionArgs } from "@remix-run/node";
import { api, methodNotAllowed, readOptionalJson } from "~/web/api.server";
import { requireApiRole } from "~/web/auth.server";
import { fileOf, formValues, readPhotoForm } from "~/web/forms.server";
import { apiT } from "~/services/platform/i18n.server";
import { deletePortfolioItem, updatePortfolioItem } from "~/services/reputation/portfolio.server";

export const loader = methodNotAllowed;

/** PATCH (or POST): multipart partial update of one's own item. DELETE: removes it. */
export const action = api(async ({ request, params }: ActionFunctionArgs) => {
  if (request.method === "PATCH" || request.method === "POST") {
    const freelancer = await requireApiRole(request, "freelancer");
    const form = await readPhotoForm(request, "image");
    const data = await updatePortfolioItem(freelancer, params.id!, formValues(form), fileOf(form, "image"));
    return json({ data, message: apiT("portfolio_item_updated") });
  }
  if (request.method === "DELETE") {
    const freelancer = await requireApiRole(request, "freelancer");
    await readOptionalJson(request);
    await deletePortfolioItem(freelancer, params.id!);
    return json({ message: apiT("portfolio_item_deleted") });
  }
  return methodNotAllowed();
});
