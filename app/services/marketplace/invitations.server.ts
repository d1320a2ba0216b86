import {
  asReadBy,
  contactConfirmed,
  flagContact,
  reportRepeatedContacts,
  screenContacts,
} from "../messaging/contacts.server";
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { inviteInputSchema, pageQuerySchema } from "~/lib/market-schemas";
import { db, transaction } from "../../../db";
import type { UserRow } from "../../../db/schema";
import { AppError, oneOnly, parseInput } from "../platform/errors.server";
import { assertId, now, offsetOf, pageMeta, type PageMeta } from "../platform/records.server";
import { notify } from "../messaging/notifications.server";
import { hasApplied } from "./applications.server";
import { assertRoleFor } from "../platform/roles.server";
import { consume, consumeWrite, limiters } from "../platform/rate-limit.server";
import { PEOPLE_COLUMNS, personJson } from "../platform/participants.server";

// A merchant invites a freelancer to one of their open opportunities; the freelancer applies
// through the usual form, or declines. One invitation per (opportunity, freelancer).
//
// Status as shown: `pending` until the freelancer answers; `applied` once they have applied to
// the opportunity (however they got there); `declined`; `void` when the opportunity closed or
// filled before they answered. Only pending and declined are stored: the rest is read from the
// application and the opportunity, so closing or filling an opportunity touches no invitation.

export type InvitationStatus = "pending" | "applied" | "declined" | "void";

export type InvitationJson = {
  id: string;
  status: InvitationStatus;
  message: string;
  opportunity: { uuid: string; title: string; status: string };
  merchant: { id: string; display_name: string | null; photo_url: string | null };
  freelancer: { id: string; display_name: string | null; photo_url: string | null };
  created_at: string;
  updated_at: string;
};

/** Invitations with what their shown status and JSON need: one query, whatever the count. */
function invitationRows() {
  return db
    .selectFrom("invitations as i")
    .innerJoin("opportunities as o", "o.id", "i.opportunity_id")
    .innerJoin("users as m", "m.id", "i.merchant_id")
    .innerJoin("users as f", "f.id", "i.freelancer_id")
    .leftJoin("applications as a", (join) =>
      join.onRef("a.opportunity_id", "=", "i.opportunity_id").onRef("a.freelancer_id", "=", "i.freelancer_id"),
    )
    .select([
      "i.id",
      "i.status",
      "i.message",
      "i.masked_message",
      "i.created_at",
      "i.updated_at",
      "i.merchant_id",
      "i.freelancer_id",
      "o.uuid as opportunity_uuid",
      "o.title as opportunity_title",
      "o.status as opportunity_status",
      ...PEOPLE_COLUMNS,
      "a.id as application_id",
    ]);
}

type InvitationRow = Awaited<ReturnType<ReturnType<typeof invitationRows>["executeTakeFirstOrThrow"]>>;

function shownStatus(r: InvitationRow): InvitationStatus {
  if (r.application_id) return "applied";
  if (r.status === "declined") return "declined";
  return r.opportunity_status === "open" ? "pending" : "void";
}

/** `viewerId`: who reads it (its merchant reads the message as written, the freelancer masked). */
function toInvitationJson(r: InvitationRow, viewerId: string): InvitationJson {
  return {
    id: r.id,
    status: shownStatus(r),
    message: asReadBy(r.message, r.masked_message, viewerId === r.merchant_id),
    opportunity: { uuid: r.opportunity_uuid, title: r.opportunity_title, status: r.opportunity_status },
    merchant: personJson(r, "merchant"),
    freelancer: personJson(r, "freelancer"),
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

async function getInvitationJson(id: string, viewerId: string) {
  return toInvitationJson(await invitationRows().where("i.id", "=", id).executeTakeFirstOrThrow(), viewerId);
}

/**
 * Invites a freelancer to one of the merchant's open opportunities (404 if not theirs, 409 if not
 * open, already invited or already applied). At most 30 invitations per merchant an hour.
 */
export async function inviteFreelancer(merchant: UserRow, uuid: string, input: unknown): Promise<InvitationJson> {
  assertRoleFor(merchant, "opportunity.invite");
  const data = parseInput(inviteInputSchema, input, "invite_failed");
  assertId(uuid);
  const [opportunity, freelancer] = await Promise.all([
    db
      .selectFrom("opportunities")
      .select(["id", "status", "hidden_at", "held_at"])
      .where("uuid", "=", uuid)
      .where("merchant_id", "=", merchant.id)
      .executeTakeFirst(),
    db
      .selectFrom("users")
      .select("id")
      .where("id", "=", data.freelancer_id)
      .where("account_type", "=", "freelancer")
      .where("deleted_at", "is", null)
      .executeTakeFirst(),
  ]);
  if (!opportunity) throw new AppError(404, "not_found");
  if (!freelancer) throw new AppError(422, "invite_failed", { freelancer_id: "invite_freelancer_invalid" });
  // Hidden by an operator or waiting for one, it cannot be shown to the freelancer either.
  if (opportunity.status !== "open" || opportunity.hidden_at !== null || opportunity.held_at !== null) {
    throw new AppError(409, "invite_opportunity_not_open");
  }
  await consumeWrite(merchant.id);
  // A contact in the message: the notice first (docs/product.md, "Contatos antes do pagamento").
  const screened = await screenContacts(db, data.message, {
    authorId: merchant.id,
    otherId: freelancer.id,
    confirmed: contactConfirmed(input),
    field: "message",
  });
  await consume(limiters.inviteByMerchant, merchant.id, "invite_rate_limited");
  const id = randomUUID();
  await oneOnly("invitations", new AppError(409, "invite_exists"), () =>
    transaction(async (trx) => {
      const at = now();
      // Inserted only while the opportunity is still open and the freelancer has not applied:
      // the check and the insert are one statement, so a close in between cannot slip through.
      const inserted = await trx
        .insertInto("invitations")
        .columns([
          "id",
          "opportunity_id",
          "freelancer_id",
          "merchant_id",
          "message",
          "masked_message",
          "status",
          "created_at",
          "updated_at",
        ])
        .expression((eb) =>
          eb
            .selectFrom("opportunities")
            .select([
              sql.val(id).as("id"),
              "opportunities.id as opportunity_id",
              sql.val(data.freelancer_id).as("freelancer_id"),
              sql.val(merchant.id).as("merchant_id"),
              sql.val(data.message).as("message"),
              sql.val(screened.masked).as("masked_message"),
              sql.lit("pending").as("status"),
              sql.val(at).as("created_at"),
              sql.val(at).as("updated_at"),
            ])
            .where("opportunities.id", "=", opportunity.id)
            .where("opportunities.status", "=", "open")
            .where("opportunities.hidden_at", "is", null)
            .where("opportunities.held_at", "is", null),
        )
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) throw new AppError(409, "invite_opportunity_not_open");
      if (await hasApplied(trx, opportunity.id, data.freelancer_id)) throw new AppError(409, "invite_already_applied");
      await flagContact(trx, screened, { userId: merchant.id, source: "invitation", sourceId: id, at });
      await notify(trx, {
        user_id: data.freelancer_id,
        kind: "invitation_received",
        application_id: null,
        opportunity_id: opportunity.id,
      });
    }),
  );
  await reportRepeatedContacts(screened, merchant.id);
  return getInvitationJson(id, merchant.id);
}

/** A freelancer's invitations (or, for a merchant, those they sent), newest first. Two queries. */
export async function listInvitations(
  user: UserRow,
  query: unknown,
): Promise<{ data: InvitationJson[]; meta: PageMeta }> {
  const { page, per_page } = parseInput(pageQuerySchema, query);
  const freelancer = user.account_type === "freelancer";
  const mine = freelancer ? ("i.freelancer_id" as const) : ("i.merchant_id" as const);
  const [{ total }, rows] = await Promise.all([
    db
      .selectFrom("invitations as i")
      .innerJoin("opportunities as o", "o.id", "i.opportunity_id")
      .select((eb) => eb.fn.countAll<number>().as("total"))
      .where(mine, "=", user.id)
      // A freelancer no longer sees an invitation to an opportunity an operator hid.
      .$if(freelancer, (qb) => qb.where("o.hidden_at", "is", null))
      .executeTakeFirstOrThrow(),
    invitationRows()
      .where(mine, "=", user.id)
      .$if(freelancer, (qb) => qb.where("o.hidden_at", "is", null))
      .orderBy("i.created_at", "desc")
      .orderBy("i.id", "desc")
      .limit(per_page)
      .offset(offsetOf(page, per_page))
      .execute(),
  ]);
  return { data: rows.map((r) => toInvitationJson(r, user.id)), meta: pageMeta(page, per_page, Number(total)) };
}

/** The freelancer's invitation to an opportunity, if there is one (for the opportunity page). */
export async function invitationTo(freelancer: UserRow, opportunityUuid: string): Promise<InvitationJson | null> {
  if (freelancer.account_type !== "freelancer") return null;
  const row = await invitationRows()
    .where("i.freelancer_id", "=", freelancer.id)
    .where("o.uuid", "=", opportunityUuid)
    .executeTakeFirst();
  return row ? toInvitationJson(row, freelancer.id) : null;
}

/** Declines a pending invitation: 404 if it is not the freelancer's, 409 once it is not pending. */
export async function declineInvitation(freelancer: UserRow, id: string): Promise<InvitationJson> {
  assertRoleFor(freelancer, "invitation.decline");
  assertId(id, "invitation_not_found");
  await consumeWrite(freelancer.id);
  const current = await invitationRows()
    .where("i.id", "=", id)
    .where("i.freelancer_id", "=", freelancer.id)
    .executeTakeFirst();
  if (!current) throw new AppError(404, "invitation_not_found");
  if (shownStatus(current) !== "pending") throw new AppError(409, "invitation_not_pending");
  const updated = await db
    .updateTable("invitations")
    .set({ status: "declined", updated_at: now() })
    .where("id", "=", id)
    .where("status", "=", "pending")
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) throw new AppError(409, "invitation_not_pending");
  return getInvitationJson(id, freelancer.id);
}

/** The merchant's open opportunities, to choose one to invite to (newest first, at most 100). */
export async function openOpportunitiesOf(merchant: UserRow) {
  if (merchant.account_type !== "merchant") return [];
  return db
    .selectFrom("opportunities")
    .select(["uuid", "title"])
    .where("merchant_id", "=", merchant.id)
    .where("status", "=", "open")
    .where("hidden_at", "is", null)
    .where("held_at", "is", null)
    .orderBy("created_at", "desc")
    .limit(100)
    .execute();
}
