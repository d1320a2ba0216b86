import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { SERVICE_LIMITS, serviceImageMoveSchema } from "~/lib/service-schemas";
import { db, transaction } from "../../../db";
import { lockUser } from "../../../db/dialect";
import type { Database, UserRow } from "../../../db/schema";
import { photoUrl } from "../accounts/users.server";
import { AppError, parseInput } from "../platform/errors.server";
import { consumeWrite } from "../platform/rate-limit.server";
import { assertId, now } from "../platform/records.server";
import { assertRoleFor } from "../platform/roles.server";
import { deletePhoto, savePhoto } from "../platform/uploads.server";

// A ready-made service's images (docs/product.md, "Serviços prontos"): at most six, checked and
// stored as portfolio images are (by content, 2 MB, the photos' store, public at /uploads/<name>),
// in the order their owner sets; the first is the catalogue card's picture. Only the owner changes
// them, while the service is not archived. Every change of one freelancer's images runs after a
// lock of their row (PostgreSQL; SQLite writes one at a time), so a count and its insert, or a
// renumbering, never interleave with another.

export type ServiceImageJson = { id: string; url: string; position: number };

/** A service's images in their order (one statement, at most six rows). */
export async function serviceImages(serviceId: string, database: Kysely<Database> = db): Promise<ServiceImageJson[]> {
  const rows = await database
    .selectFrom("service_images")
    .select(["id", "image_path", "position"])
    .where("service_id", "=", serviceId)
    .orderBy("position")
    .orderBy("id")
    .limit(SERVICE_LIMITS.images)
    .execute();
  return rows.map((r) => ({ id: r.id, url: photoUrl(r.image_path)!, position: r.position }));
}

/** The owner's service that may still change (not archived), inside the locked transaction; 404 for anyone else's. */
async function ownChangeable(trx: Kysely<Database>, user: UserRow, serviceId: string) {
  await lockUser(trx, user.id);
  const service = await trx
    .selectFrom("services")
    .select(["id", "status"])
    .where("id", "=", serviceId)
    .where("freelancer_id", "=", user.id)
    .executeTakeFirst();
  if (!service) throw new AppError(404, "not_found");
  if (service.status === "archived") throw new AppError(409, "services:service_archived");
}

/** Writes positions 0…n-1 in the order given (only the rows whose position moved). */
async function renumber(trx: Kysely<Database>, serviceId: string, ids: { id: string; position: number }[]) {
  for (const [position, image] of ids.entries()) {
    if (image.position === position) continue;
    await trx
      .updateTable("service_images")
      .set({ position })
      .where("id", "=", image.id)
      .where("service_id", "=", serviceId)
      .execute();
  }
}

const ordered = (trx: Kysely<Database>, serviceId: string) =>
  trx
    .selectFrom("service_images")
    .select(["id", "position", "image_path"])
    .where("service_id", "=", serviceId)
    .orderBy("position")
    .orderBy("id")
    .execute();

/** Adds an image at the end: the seventh is refused (409), a file that is not an image 422, over 2 MB 413. */
export async function addServiceImage(
  user: UserRow,
  serviceId: string,
  image: Blob | null,
): Promise<ServiceImageJson[]> {
  assertRoleFor(user, "service.manage");
  assertId(serviceId);
  await consumeWrite(user.id);
  // Someone else's service is refused before its file is read or stored.
  const owned = await db
    .selectFrom("services")
    .select("id")
    .where("id", "=", serviceId)
    .where("freelancer_id", "=", user.id)
    .executeTakeFirst();
  if (!owned) throw new AppError(404, "not_found");
  if (!image || image.size === 0) throw new AppError(422, "validation_failed", { image: "services:image_required" });
  const imagePath = await savePhoto(image, "image", "validation_failed");
  try {
    return await transaction(async (trx) => {
      await ownChangeable(trx, user, serviceId);
      const current = await ordered(trx, serviceId);
      if (current.length >= SERVICE_LIMITS.images)
        throw new AppError(
          409,
          "services:images_full",
          { image: "services:images_full" },
          { max: SERVICE_LIMITS.images },
        );
      await trx
        .insertInto("service_images")
        .values({
          id: randomUUID(),
          service_id: serviceId,
          position: current.length,
          image_path: imagePath,
          created_at: now(),
        })
        .execute();
      return serviceImages(serviceId, trx);
    });
  } catch (error) {
    await deletePhoto(imagePath);
    throw error;
  }
}

/** Takes an image out (the later ones move up) and its file out of the store. */
export async function removeServiceImage(
  user: UserRow,
  serviceId: string,
  imageId: string,
): Promise<ServiceImageJson[]> {
  assertRoleFor(user, "service.manage");
  assertId(serviceId);
  assertId(imageId);
  await consumeWrite(user.id);
  const { removed, images } = await transaction(async (trx) => {
    await ownChangeable(trx, user, serviceId);
    const gone = await trx
      .deleteFrom("service_images")
      .where("id", "=", imageId)
      .where("service_id", "=", serviceId)
      .returning("image_path")
      .executeTakeFirst();
    if (!gone) throw new AppError(404, "not_found");
    await renumber(trx, serviceId, await ordered(trx, serviceId));
    return { removed: gone.image_path, images: await serviceImages(serviceId, trx) };
  });
  await deletePhoto(removed);
  return images;
}

/** Moves an image to `position` (0 is the first; past the last, the last), the others keeping their order. */
export async function moveServiceImage(
  user: UserRow,
  serviceId: string,
  imageId: string,
  input: unknown,
): Promise<ServiceImageJson[]> {
  assertRoleFor(user, "service.manage");
  assertId(serviceId);
  assertId(imageId);
  const { position } = parseInput(serviceImageMoveSchema, input);
  await consumeWrite(user.id);
  return transaction(async (trx) => {
    await ownChangeable(trx, user, serviceId);
    const current = await ordered(trx, serviceId);
    const from = current.findIndex((image) => image.id === imageId);
    if (from < 0) throw new AppError(404, "not_found");
    const next = current.filter((image) => image.id !== imageId);
    next.splice(Math.min(position, next.length), 0, current[from]!);
    await renumber(trx, serviceId, next);
    return serviceImages(serviceId, trx);
  });
}

/** The stored names of the images of these services (to remove their files once the rows are gone). */
export async function imagePathsOf(
  database: Kysely<Database>,
  where: { serviceId: string } | { freelancerId: string },
) {
  const rows = await database
    .selectFrom("service_images")
    .innerJoin("services", "services.id", "service_images.service_id")
    .select("service_images.image_path")
    .where(
      "serviceId" in where ? "services.id" : "services.freelancer_id",
      "=",
      "serviceId" in where ? where.serviceId : where.freelancerId,
    )
    .execute();
  return rows.map((r) => r.image_path);
}
