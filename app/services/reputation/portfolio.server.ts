import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { MAX_PORTFOLIO_ITEMS, checkFields, portfolioItemSchema, portfolioPatchSchema } from "~/lib/schemas";
import { db, transaction } from "../../../db";
import { lockUser } from "../../../db/dialect";
import type { PortfolioItemRow, UserRow } from "../../../db/schema";
import { AppError } from "../platform/errors.server";
import { assertId, now } from "../platform/records.server";
import { assertRoleFor } from "../platform/roles.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { deletePhoto, photoProblems, savePhoto } from "../platform/uploads.server";
import { photoUrl } from "../accounts/users.server";

// A freelancer's portfolio. Images go to the same store as profile photos (files on SQLite,
// the photos table on PostgreSQL) and are checked the same way, by content.

export type PortfolioItemJson = {
  id: string;
  title: string;
  description: string;
  link: string | null;
  image_url: string | null;
  created_at: string;
  updated_at: string;
};

export function toPortfolioJson(row: PortfolioItemRow): PortfolioItemJson {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    link: row.link,
    image_url: photoUrl(row.image_path),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A user's portfolio, oldest first (the order it was built in). One query. */
export async function listPortfolio(userId: string): Promise<PortfolioItemJson[]> {
  const rows = await db
    .selectFrom("portfolio_items")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(toPortfolioJson);
}

const hasImage = (image?: Blob | null): image is Blob => Boolean(image && image.size > 0);

/** An item's fields, or a 422 naming every problem, the image's included. */
async function checkedItem<S extends z.ZodRawShape>(
  schema: z.ZodObject<S>,
  input: unknown,
  image?: Blob | null,
): Promise<z.output<z.ZodObject<S>>> {
  const checked = checkFields(schema, input);
  if (checked.data !== null) return checked.data;
  throw new AppError(422, "portfolio_failed", { ...checked.errors, ...(await photoProblems(image, "image")) });
}

/** Adds an item: freelancers only, at most 20 (a 409 past that). */
export async function addPortfolioItem(user: UserRow, input: unknown, image?: Blob | null): Promise<PortfolioItemJson> {
  assertRoleFor(user, "portfolio.manage");
  await consumeWrite(user.id);
  const data = await checkedItem(portfolioItemSchema, input, image);
  const imagePath = hasImage(image) ? await savePhoto(image, "image", "portfolio_failed") : null;
  try {
    const row = await transaction(async (trx) => {
      // The count and the insert must not interleave with another add of the same user.
      await lockUser(trx, user.id);
      const { n } = await trx
        .selectFrom("portfolio_items")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("user_id", "=", user.id)
        .executeTakeFirstOrThrow();
      if (Number(n) >= MAX_PORTFOLIO_ITEMS)
        throw new AppError(409, "portfolio_full", undefined, { max: MAX_PORTFOLIO_ITEMS });
      const at = now();
      return trx
        .insertInto("portfolio_items")
        .values({
          id: randomUUID(),
          user_id: user.id,
          title: data.title,
          description: data.description,
          link: data.link ?? null,
          image_path: imagePath,
          created_at: at,
          updated_at: at,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
    return toPortfolioJson(row);
  } catch (error) {
    await deletePhoto(imagePath);
    throw error;
  }
}

async function ownItem(user: UserRow, id: string) {
  assertId(id, "portfolio_item_not_found");
  const row = await db
    .selectFrom("portfolio_items")
    .selectAll()
    .where("id", "=", id)
    .where("user_id", "=", user.id)
    .executeTakeFirst();
  if (!row) throw new AppError(404, "portfolio_item_not_found");
  return row;
}

/** Changes the fields sent; a new image replaces the old one, `remove_image` drops it. */
export async function updatePortfolioItem(
  user: UserRow,
  id: string,
  input: unknown,
  image?: Blob | null,
): Promise<PortfolioItemJson> {
  assertRoleFor(user, "portfolio.manage");
  await consumeWrite(user.id);
  const data = await checkedItem(portfolioPatchSchema, input, image);
  const current = await ownItem(user, id);
  const imagePath = hasImage(image) ? await savePhoto(image, "image", "portfolio_failed") : undefined;
  const row = await db
    .updateTable("portfolio_items")
    .set({
      ...(data.title === undefined ? {} : { title: data.title }),
      ...(data.description === undefined ? {} : { description: data.description }),
      ...(data.link === undefined ? {} : { link: data.link }),
      ...(imagePath ? { image_path: imagePath } : data.remove_image ? { image_path: null } : {}),
      updated_at: now(),
    })
    .where("id", "=", id)
    .where("user_id", "=", user.id)
    .returningAll()
    .executeTakeFirst();
  if (!row) {
    await deletePhoto(imagePath ?? null);
    throw new AppError(404, "portfolio_item_not_found");
  }
  if (row.image_path !== current.image_path) await deletePhoto(current.image_path);
  return toPortfolioJson(row);
}

export async function deletePortfolioItem(user: UserRow, id: string): Promise<void> {
  assertRoleFor(user, "portfolio.manage");
  await consumeWrite(user.id);
  assertId(id, "portfolio_item_not_found");
  const row = await db
    .deleteFrom("portfolio_items")
    .where("id", "=", id)
    .where("user_id", "=", user.id)
    .returning("image_path")
    .executeTakeFirst();
  if (!row) throw new AppError(404, "portfolio_item_not_found");
  await deletePhoto(row.image_path);
}
