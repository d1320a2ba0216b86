import type { ContractParty, UserRow } from "../../../db/schema";
import { displayNameOf, photoUrl } from "../accounts/users.server";
import { AppError } from "./errors.server";
import { UUID } from "./records.server";

// The two sides of a record (an application, its conversation, its contract, the contract's
// reviews): which side a user is, the people joins that name both sides, and the one way to read
// such a record for one of its sides.

export type Party = ContractParty;
export type Sides = { merchant_id: string; freelancer_id: string };

/** The user's side of a record, or null for anyone else. */
export function partyOf(user: Pick<UserRow, "id">, row: Sides): Party | null {
  if (row.freelancer_id === user.id) return "freelancer";
  if (row.merchant_id === user.id) return "merchant";
  return null;
}

export const otherParty = (party: Party): Party => (party === "merchant" ? "freelancer" : "merchant");

/**
 * The record as one of its two sides sees it: the id is checked first (a uuid, else 404, never
 * sent to the database: PostgreSQL refuses a NUL in text with an error), then the record is read
 * with `read`; anyone who is neither side gets the same 404 as for a record that does not exist.
 */
export async function asParty<R extends Sides>(
  user: Pick<UserRow, "id">,
  id: string,
  read: (id: string) => Promise<R | undefined>,
  key = "not_found",
): Promise<{ row: R; party: Party }> {
  if (!UUID.test(id)) throw new AppError(404, key);
  const row = await read(id);
  const party = row ? partyOf(user, row) : null;
  if (!row || !party) throw new AppError(404, key);
  return { row, party };
}

/** The people joins' columns: both sides' names and photos, selected under `m` and `f`. */
export const PEOPLE_COLUMNS = [
  "m.display_name as merchant_display_name",
  "m.full_name as merchant_full_name",
  "m.photo_path as merchant_photo_path",
  "f.display_name as freelancer_display_name",
  "f.full_name as freelancer_full_name",
  "f.photo_path as freelancer_photo_path",
] as const;

type PeopleRow = Sides & {
  [K in `${Party}_${"display_name" | "full_name" | "photo_path"}`]: K extends `${string}_full_name`
    ? string
    : string | null;
};

/** One side of a record as the API shows a person: id, the name to show, the photo. */
export function personJson(row: PeopleRow, party: Party) {
  return {
    id: row[`${party}_id`],
    display_name: displayNameOf({ display_name: row[`${party}_display_name`], full_name: row[`${party}_full_name`] }),
    photo_url: photoUrl(row[`${party}_photo_path`]),
  };
}
