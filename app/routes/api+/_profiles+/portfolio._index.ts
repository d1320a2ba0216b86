import { addPortfolioItem, listPortfolio } from "~/services/reputation/portfolio.server";
import { fileOf } from "~/web/bodies.server";
import { apiRoute } from "~/web/api-route.server";

export const { loader, action } = apiRoute({
  /** The signed-in freelancer's own portfolio (others see it on GET /api/freelancers/:id). */
  GET: { may: "portfolio.manage", handle: async ({ user }) => ({ data: await listPortfolio(user.id) }) },
  /** Multipart (or url-encoded): title, description, link?, image? (JPEG/PNG/WebP ≤ 2 MB). */
  POST: {
    may: "portfolio.manage",
    body: "image-form",
    status: 201,
    message: "portfolio_item_added",
    handle: async ({ user, body, form }) => ({ data: await addPortfolioItem(user, body, fileOf(form, "image")) }),
  },
});
