import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { api, apiPost } from "~/web/api.server";
import { requireApiRole } from "~/web/auth.server";
import { fileOf, formValues, readPhotoForm } from "~/web/forms.server";
import { apiT } from "~/services/platform/i18n.server";
import { addPortfolioItem, listPortfolio } from "~/services/reputation/portfolio.server";

/** The signed-in freelancer's own portfolio (others see it on GET /api/freelancers/:id). */
export const loader = api(async ({ request }: LoaderFunctionArgs) => {
  const freelancer = await requireApiRole(request, "freelancer");
  return json({ data: await listPortfolio(freelancer.id) });
});

/** Multipart (or url-encoded): title, description, link?, image? (JPEG/PNG/WebP ≤ 2 MB). */
export const action = apiPost(async ({ request }: ActionFunctionArgs) => {
  const freelancer = await requireApiRole(request, "freelancer");
  const form = await readPhotoForm(request, "image");
  const data = await addPortfolioItem(freelancer, formValues(form), fileOf(form, "image"));
  return json({ data, message: apiT("portfolio_item_added") }, { status: 201 });
});
