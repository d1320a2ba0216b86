import { deletePortfolioItem, updatePortfolioItem } from "~/services/reputation/portfolio.server";
import { fileOf } from "~/web/bodies.server";
import type { ApiMethod } from "~/web/api-route.server";
import { apiRoute } from "~/web/api-route.server";

const ids = { id: "portfolio_item_not_found" };

/** Multipart partial update of one's own item. */
const update: ApiMethod = {
  may: "portfolio.manage",
  body: "image-form",
  ids,
  message: "portfolio_item_updated",
  handle: async ({ user, params, body, form }) => ({
    data: await updatePortfolioItem(user, params.id, body, fileOf(form, "image")),
  }),
};

export const { loader, action } = apiRoute({
  PATCH: update,
  POST: update,
  /** Removes one's own item. */
  DELETE: {
    may: "portfolio.manage",
    ids,
    message: "portfolio_item_deleted",
    handle: async ({ user, params }) => {
      await deletePortfolioItem(user, params.id);
      return {};
    },
  },
});
