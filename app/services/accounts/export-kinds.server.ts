import type { Selectable } from "kysely";
import { db } from "../../../db";
import type { ContractParty, Database, UserRow } from "../../../db/schema";
import { readAttachment, readPhoto } from "../platform/uploads.server";
import { twoFactorState } from "./two-factor.server";
import { issuerView } from "../fiscal/issuers.server";
import type { OrderAnswer } from "../catalog/orders.server";

// What the copy of a user's data holds, file by file (LGPD art. 18; docs/product.md, "Seus
// dados"): EXPORT_KINDS, one entry per JSON file of the ZIP, each reading its rows for one user.
// The inventory of personal data (personal-data.server.ts) names these files for every table
// that holds someone's data, so a new personal table is exported by placing it there and reading
// it here (a new file's name is a new entry of this table: the inventory's `inFile` only takes
// names that are entries). Nothing of another user's private data: not the other side's messages,
// offers or words, not their e-mail; another user appears by id only.

/** One of the user's own files, by its path in the ZIP. */
export type FileEntry = { path: string; read: () => Promise<{ body: Buffer } | null> };

type Contract = Selectable<Database["contracts"]>;

/** What several files need, read once per copy (when first asked for). */
export type ExportSource = {
  user: UserRow;
  contracts: () => Promise<Contract[]>;
  /** The user's side in each of their contracts, by contract id. */
  contractSides: () => Promise<Map<string, ContractParty>>;
  ownApplications: () => Promise<Selectable<Database["applications"]>[]>;
  receivedApplications: () => Promise<ReceivedApplication[]>;
  /** The user's side in each application they made or received, by application id. */
  applicationSides: () => Promise<Map<string, ContractParty>>;
  /** The moves of the user's side in their contracts, and the files of their contracts. */
  contractEvents: () => Promise<{
    events: Selectable<Database["contract_events"]>[];
    files: Selectable<Database["contract_files"]>[];
  }>;
};

/** A file of the copy: its JSON, given the user's data; the user's own files it names go in `files`. */
export type ExportKind = (source: ExportSource, files: FileEntry[]) => Promise<unknown>;

type ReceivedApplication = Awaited<ReturnType<typeof receivedApplications>>[number];

const parseList = (text: string | null) => {
  try {
    return text ? (JSON.parse(text) as unknown) : null;
  } catch {
    return text;
  }
};
/** A name safe inside the ZIP: no folders, no control characters. */
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const safe = (name: string) => name.replace(/[\\/\u0000-\u001f\u007f]/g, "_").slice(0, 120) || "arquivo";

const once = <T>(read: () => Promise<T>) => {
  let value: Promise<T> | undefined;
  return () => (value ??= read());
};

/** The sources of one user's copy. */
export function exportSource(user: UserRow): ExportSource {
  const contracts = once(() =>
    db
      .selectFrom("contracts")
      .selectAll()
      .where((eb) => eb.or([eb("merchant_id", "=", user.id), eb("freelancer_id", "=", user.id)]))
      .orderBy("created_at")
      .execute(),
  );
  const own = once(() =>
    db.selectFrom("applications").selectAll().where("freelancer_id", "=", user.id).orderBy("created_at").execute(),
  );
  const received = once(() => receivedApplications(user.id));
  const contractSides = once(
    async () =>
      new Map<string, ContractParty>(
        (await contracts()).map((c) => [c.id, c.merchant_id === user.id ? "merchant" : "freelancer"]),
      ),
  );
  return {
    user,
    contracts,
    contractSides,
    ownApplications: own,
    receivedApplications: received,
    applicationSides: once(async () => {
      const sides: [string, ContractParty][] = [
        ...(await own()).map((a): [string, ContractParty] => [a.id, "freelancer"]),
        ...(await received()).map((a): [string, ContractParty] => [a.id, "merchant"]),
      ];
      return new Map(sides);
    }),
    contractEvents: once(async () => {
      const sides = await contractSides();
      const ids = idsOf(sides);
      if (!ids.length) return { events: [], files: [] };
      const [events, files] = await Promise.all([
        db.selectFrom("contract_events").selectAll().where("contract_id", "in", ids).orderBy("seq").execute(),
        db.selectFrom("contract_files").selectAll().where("contract_id", "in", ids).execute(),
      ]);
      return { events: events.filter((e) => sides.get(e.contract_id) === e.author), files };
    }),
  };
}

/** Applications to the merchant's opportunities: the merchant's side only (the proposal is the freelancer's). */
function receivedApplications(userId: string) {
  return db
    .selectFrom("applications as a")
    .innerJoin("opportunities as o", "o.id", "a.opportunity_id")
    .select([
      "a.id",
      "a.opportunity_id",
      "a.freelancer_id",
      "a.status",
      "a.rejection_reason",
      "a.rejection_message",
      "a.created_at",
      "a.updated_at",
    ])
    .where("o.merchant_id", "=", userId)
    .orderBy("a.created_at")
    .execute();
}

/** The ids of the user's contracts or applications, and nothing to read when there are none. */
const idsOf = (sides: Map<string, ContractParty>) => [...sides.keys()];

/** The user's side's moves in their contracts, with the files of each, as one file of the copy. */
const contractEvents =
  (which: (kind: string) => boolean): ExportKind =>
  async (source, files) => {
    const { events, files: contractFiles } = await source.contractEvents();
    return events
      .filter((e) => which(e.kind))
      .map((e) => ({
        id: e.id,
        contract_id: e.contract_id,
        seq: e.seq,
        kind: e.kind,
        message: e.message,
        created_at: e.created_at,
        files: contractFiles
          .filter((f) => f.event_id === e.id)
          .map((f) => {
            const path = `files/deliveries/${f.contract_id}/${f.id}-${safe(f.original_name)}`;
            files.push({ path, read: () => readAttachment(f.stored_name) });
            return { id: f.id, name: f.original_name, content_type: f.content_type, size_bytes: f.size_bytes, path };
          }),
      }));
  };

/** A time entry's file in the freelancer's copy, under files/timesheets/ (none: null). */
function entryFile(e: Selectable<Database["time_entries"]>, files: FileEntry[]) {
  const stored = e.file_stored_name;
  if (stored === null) return null;
  const name = e.file_original_name ?? "arquivo";
  const path = `files/timesheets/${e.contract_id}/${e.id}-${safe(name)}`;
  files.push({ path, read: () => readAttachment(stored) });
  return { name, content_type: e.file_content_type, size_bytes: e.file_size_bytes, path };
}

/**
 * A contract in one side's copy: the words of the other side (why they asked to cancel or ended
 * it) left out, and the operator's flag (it tells that a side was suspended or banned).
 */
function contractJson(contract: Contract, side: ContractParty) {
  const { flagged_at: _flagged, flag_reason: _flag, ...rest } = contract;
  return {
    ...rest,
    cancel_request_reason: contract.cancel_requested_by === side ? contract.cancel_request_reason : null,
    end_reason: contract.ended_by === side || contract.ended_by === "system" ? contract.end_reason : null,
  };
}

/** The files of the copy, in the order of the ZIP. */
export const EXPORT_KINDS = {
  "profile.json": async ({ user }, files) => {
    const {
      password_hash: _hash,
      search_text: _text,
      search_skills: _skills,
      search_city: _city,
      sort_name: _sort,
      ...profile
    } = user;
    for (const photo of [user.photo_path, user.hidden_photo_path].filter((p): p is string => !!p)) {
      files.push({ path: `files/profile/${safe(photo)}`, read: () => readPhoto(photo) });
    }
    return { ...profile, skills: parseList(user.skills) };
  },
  "opportunities.json": async ({ user }) =>
    (
      await db
        .selectFrom("opportunities")
        .selectAll()
        .where("merchant_id", "=", user.id)
        .orderBy("created_at")
        .execute()
    ).map((o) => ({ ...o, skills: parseList(o.skills) })),
  // The merchant's message with a refusal is their words: in the merchant's copy only.
  "applications.json": async (source) => ({
    as_freelancer: (await source.ownApplications()).map(({ rejection_message: _theirs, ...a }) => a),
    as_merchant: await source.receivedApplications(),
  }),
  "offers.json": async (source) => {
    const sides = await source.applicationSides();
    const ids = idsOf(sides);
    if (!ids.length) return [];
    const offers = await db
      .selectFrom("offers")
      .selectAll()
      .where("application_id", "in", ids)
      .orderBy("seq")
      .execute();
    return offers.filter((o) => sides.get(o.application_id) === o.author);
  },
  "contracts.json": async (source) => {
    const sides = await source.contractSides();
    return (await source.contracts()).map((c) => contractJson(c, sides.get(c.id)!));
  },
  // Hourly contracts' weeks (both sides), and the time entries: the freelancer's words and files
  // (under files/timesheets/, as their deliveries'), in the freelancer's copy; the merchant's
  // questions on entries, in the merchant's.
  "timesheets.json": async (source, files) => {
    const sides = await source.contractSides();
    const ids = idsOf(sides);
    if (!ids.length) return [];
    const [weeks, entries] = await Promise.all([
      db.selectFrom("contract_weeks").selectAll().where("contract_id", "in", ids).orderBy("week_start").execute(),
      db.selectFrom("time_entries").selectAll().where("contract_id", "in", ids).orderBy("day").execute(),
    ]);
    return weeks.map((w) => ({
      contract_id: w.contract_id,
      week_start: w.week_start,
      status: w.status,
      rate_cents: w.rate_cents,
      cap_minutes: w.cap_minutes,
      minutes_total: w.minutes_total,
      submitted_at: w.submitted_at,
      approved_at: w.approved_at,
      entries:
        sides.get(w.contract_id) === "freelancer"
          ? entries
              .filter((e) => e.week_id === w.id)
              .map((e) => ({
                day: e.day,
                minutes: e.minutes,
                description: e.description,
                answer: e.answer,
                file: entryFile(e, files),
              }))
          : entries
              .filter((e) => e.week_id === w.id && e.question !== null)
              .map((e) => ({ day: e.day, question: e.question })),
    }));
  },
  // Orders of ready-made services the user bought or sold: the package and extras as confirmed,
  // the buyer's answers and the revisions used (docs/product.md, "Contratar um serviço").
  // The files the buyer sent as answers are in the buyer's copy, under files/orders/.
  "service_orders.json": async ({ user }, files) => {
    const orders = await db
      .selectFrom("service_orders")
      .selectAll()
      .where((eb) => eb.or([eb("merchant_id", "=", user.id), eb("freelancer_id", "=", user.id)]))
      .orderBy("created_at")
      .execute();
    return orders.map((o) => ({
      ...o,
      answers: o.answers
        ? (JSON.parse(o.answers) as OrderAnswer[]).map(({ file, ...answer }) => {
            if (!file) return answer;
            const { stored_name, ...shown } = file;
            if (o.merchant_id !== user.id) return { ...answer, file: shown };
            const path = `files/orders/${o.id}/${file.id}-${safe(answer.answer ?? "")}`;
            files.push({ path, read: () => readAttachment(stored_name) });
            return { ...answer, file: { ...shown, path } };
          })
        : null,
    }));
  },
  "deliveries.json": contractEvents((kind) => kind === "delivered"),
  "change_requests.json": contractEvents((kind) => kind === "changes_requested"),
  "contract_events.json": contractEvents((kind) => kind !== "delivered" && kind !== "changes_requested"),
  "disputes.json": async (source) => {
    const sides = await source.contractSides();
    const ids = idsOf(sides);
    if (!ids.length) return [];
    const disputes = await db.selectFrom("disputes").selectAll().where("contract_id", "in", ids).execute();
    return disputes.map((d) => {
      const ours = sides.get(d.contract_id) === d.opened_by;
      return {
        id: d.id,
        contract_id: d.contract_id,
        opened_by_you: ours,
        // The reason is the words of the side that opened it.
        reason: ours ? d.reason : null,
        status: d.status,
        respond_by: d.respond_by,
        decision: d.decision,
        decision_reason: d.decision_reason,
        decided_at: d.decided_at,
        created_at: d.created_at,
      };
    });
  },
  "messages.json": async (source, files) => {
    const sides = await source.applicationSides();
    const ids = idsOf(sides);
    if (!ids.length) return [];
    const [messages, messageFiles] = await Promise.all([
      db.selectFrom("messages").selectAll().where("application_id", "in", ids).orderBy("seq").execute(),
      db.selectFrom("message_files").selectAll().where("application_id", "in", ids).execute(),
    ]);
    return messages
      .filter((m) => sides.get(m.application_id) === m.author)
      .map((m) => ({
        id: m.id,
        application_id: m.application_id,
        seq: m.seq,
        body: m.body,
        hidden_at: m.hidden_at,
        hidden_reason: m.hidden_reason,
        created_at: m.created_at,
        files: messageFiles
          .filter((f) => f.message_id === m.id)
          .map((f) => {
            const path = `files/messages/${f.application_id}/${f.id}-${safe(f.original_name)}`;
            files.push({ path, read: () => readAttachment(f.stored_name) });
            return { id: f.id, name: f.original_name, content_type: f.content_type, size_bytes: f.size_bytes, path };
          }),
      }));
  },
  "reviews.json": async ({ user }) => {
    const [given, received] = await Promise.all([
      db.selectFrom("reviews").selectAll().where("author_id", "=", user.id).orderBy("created_at").execute(),
      // Reviews of the user once published (blind until then, like on the profile).
      db
        .selectFrom("reviews")
        .select([
          "id",
          "contract_id",
          "author_role",
          "rating",
          "comment",
          "reply",
          "replied_at",
          "published_at",
          "hidden_at",
          "reply_hidden_at",
          "created_at",
        ])
        .where("subject_id", "=", user.id)
        .where("published_at", "is not", null)
        .orderBy("created_at")
        .execute(),
    ]);
    // A reply to a review given is the other side's words (it is in their copy, as received).
    return { given: given.map(({ reply: _theirs, reply_hidden_reason: _why, ...r }) => r), received };
  },
  "notifications.json": async ({ user }) =>
    (
      await db.selectFrom("notifications").selectAll().where("user_id", "=", user.id).orderBy("created_at").execute()
    ).map((n) => ({ ...n, detail: parseList(n.detail) })),
  "settings.json": async ({ user }) => {
    const [optOuts, pushOptOuts, devices, savedSearches, whatsapp, whatsappKinds] = await Promise.all([
      db.selectFrom("email_opt_outs").select(["kind", "created_at"]).where("user_id", "=", user.id).execute(),
      db.selectFrom("push_opt_outs").select(["kind", "created_at"]).where("user_id", "=", user.id).execute(),
      db
        .selectFrom("push_subscriptions")
        .select(["endpoint", "user_agent", "created_at", "last_sent_at"])
        .where("user_id", "=", user.id)
        .orderBy("created_at")
        .execute(),
      db
        .selectFrom("saved_searches")
        .select(["id", "name", "filters", "frequency", "last_sent_at", "created_at", "updated_at"])
        .where("user_id", "=", user.id)
        .orderBy("created_at")
        .execute(),
      db
        .selectFrom("whatsapp_numbers")
        .select(["phone", "confirmed_at", "opted_out_at", "unusable_at", "created_at"])
        .where("user_id", "=", user.id)
        .executeTakeFirst(),
      db.selectFrom("whatsapp_opt_ins").select(["kind", "created_at"]).where("user_id", "=", user.id).execute(),
    ]);
    return {
      locale: user.locale,
      public_profile: user.public_profile,
      email_turned_off: optOuts,
      push_turned_off: pushOptOuts,
      // The push service's host only: the endpoint itself is a credential of the device.
      push_devices: devices.map(({ endpoint, ...d }) => ({ service: new URL(endpoint).host, ...d })),
      saved_searches: savedSearches.map((s) => ({ ...s, filters: JSON.parse(s.filters) as unknown })),
      // The number and its dates; the code's hash is a secret (and gone once confirmed).
      whatsapp_number: whatsapp ?? null,
      whatsapp_turned_on: whatsappKinds,
    };
  },
  "sessions.json": async ({ user }) =>
    (
      await db
        .selectFrom("sessions")
        .select(["public_id", "user_agent", "ip", "place", "created_at", "last_used_at", "expires_at", "passkey_id"])
        .where("user_id", "=", user.id)
        .orderBy("created_at")
        .execute()
    ).map(({ passkey_id, ...s }) => ({ ...s, with_passkey: passkey_id !== null })),
  "passkeys.json": ({ user }) =>
    db
      .selectFrom("passkeys")
      .select(["name", "created_at", "last_used_at"])
      .where("user_id", "=", user.id)
      .orderBy("created_at")
      .execute(),
  "two_factor.json": async ({ user }) => {
    const state = await twoFactorState(user);
    return { enabled: state.enabled, recovery_codes_left: state.recovery_codes_left };
  },
  "terms_acceptances.json": ({ user }) =>
    db
      .selectFrom("terms_acceptances")
      .select(["version", "ip", "accepted_at"])
      .where("user_id", "=", user.id)
      .orderBy("accepted_at")
      .execute(),
  "reports.json": ({ user }) =>
    db
      .selectFrom("reports")
      .select([
        "id",
        "target_type",
        "target_id",
        "reason",
        "details",
        "status",
        "resolution",
        "resolved_at",
        "created_at",
      ])
      .where("reporter_id", "=", user.id)
      .orderBy("created_at")
      .execute(),
  "payments.json": (source) => payments(source),
  "invitations.json": async ({ user }) =>
    (
      await db
        .selectFrom("invitations")
        .selectAll()
        .where((eb) => eb.or([eb("merchant_id", "=", user.id), eb("freelancer_id", "=", user.id)]))
        .orderBy("created_at")
        .execute()
    ).map((i) =>
      // An invitation's message is the merchant's words: in the merchant's copy only.
      i.merchant_id === user.id ? i : { ...i, message: null },
    ),
  "portfolio.json": async ({ user }, files) => {
    const items = await db
      .selectFrom("portfolio_items")
      .selectAll()
      .where("user_id", "=", user.id)
      .orderBy("created_at")
      .execute();
    for (const { image_path: image } of items) {
      if (image) files.push({ path: `files/portfolio/${safe(image)}`, read: () => readPhoto(image) });
    }
    return items;
  },
  // Their ready-made services, every state, as stored (docs/product.md, "Serviços prontos"), each
  // with its images in their order (the files under files/services/).
  "services.json": async ({ user }, files) => {
    const [services, images] = await Promise.all([
      db.selectFrom("services").selectAll().where("freelancer_id", "=", user.id).orderBy("created_at").execute(),
      db
        .selectFrom("service_images")
        .innerJoin("services", "services.id", "service_images.service_id")
        .selectAll("service_images")
        .where("services.freelancer_id", "=", user.id)
        .orderBy("service_images.service_id")
        .orderBy("service_images.position")
        .execute(),
    ]);
    for (const { image_path: image } of images)
      files.push({ path: `files/services/${safe(image)}`, read: () => readPhoto(image) });
    return services.map((s) => ({ ...s, images: images.filter((i) => i.service_id === s.id) }));
  },
  // Their fiscal identity as typed and decided, with the photos sent while they are kept, and
  // each time it was sent to the automatic provider (who received their data, and when).
  "identity.json": async ({ user }, files) => {
    const identity = await db.selectFrom("identities").selectAll().where("user_id", "=", user.id).executeTakeFirst();
    if (!identity) return null;
    const sent = await db
      .selectFrom("identity_verifications")
      .select(["provider", "ref", "created_at"])
      .where("user_id", "=", user.id)
      .orderBy("created_at")
      .execute();
    return {
      kind: identity.kind,
      document: identity.document,
      legal_name: identity.legal_name,
      birth_date: identity.birth_date,
      responsible_cpf: identity.responsible_cpf,
      status: identity.status,
      doc_type: identity.doc_type,
      submitted_at: identity.submitted_at,
      decided_at: identity.decided_at,
      reason: identity.reason,
      files_deleted_at: identity.files_deleted_at,
      files: (["front_file", "back_file", "selfie_file"] as const).flatMap((column) => {
        const name = identity[column];
        if (!name) return [];
        const path = `files/identity/${column.replace("_file", "")}.${name.split(".").pop()}`;
        files.push({ path, read: () => readAttachment(name) });
        return [path];
      }),
      sent_to_provider: sent,
    };
  },
  // Their own NFS-e issuer's settings (never the certificate nor its password), and the notas
  // issued by them or to them: what, how much, the Sefin's answer (the XML is the nota's own).
  "fiscal.json": async ({ user }) => {
    const [issuer, notas] = await Promise.all([
      db.selectFrom("fiscal_issuers").selectAll().where("owner", "=", user.id).executeTakeFirst(),
      db
        .selectFrom("nfse_documents")
        .select([
          "id",
          "kind",
          "contract_id",
          "milestone_id",
          "provider_user_id",
          "taker_user_id",
          "taker_document",
          "taker_name",
          "amount_cents",
          "competence",
          "status",
          "access_key",
          "nfse_number",
          "error_code",
          "error_message",
          "issued_at",
          "cancelled_at",
          "created_at",
        ])
        .where((eb) => eb.or([eb("provider_user_id", "=", user.id), eb("taker_user_id", "=", user.id)]))
        .orderBy("created_at")
        .execute(),
    ]);
    if (!issuer && notas.length === 0) return null;
    // The tomador's document and name are the other side's when the nota is theirs to receive.
    const own = notas.map((n) => (n.taker_user_id === user.id ? n : { ...n, taker_document: null, taker_name: null }));
    return { issuer: issuer ? issuerView(issuer) : null, notas: own };
  },
} satisfies Record<string, ExportKind>;

/** A file of the copy, by its name in the ZIP. */
export type ExportFile = keyof typeof EXPORT_KINDS;

/** Payments: the user's payout account, payouts, refunds, charges, and ledger lines that concern them. */
async function payments(source: ExportSource) {
  const userId = source.user.id;
  const contractIds = idsOf(await source.contractSides());
  const [payoutAccount, payouts, refunds, charges, milestones, months, entries, ledgerTransactions, recurrences] =
    await Promise.all([
      db
        .selectFrom("payout_accounts")
        .select(["key_type", "pix_key", "holder_name", "holder_document", "updated_at"])
        .where("user_id", "=", userId)
        .executeTakeFirst(),
      db
        .selectFrom("payouts")
        .select([
          "id",
          "amount_cents",
          "key_type",
          "pix_key",
          "holder_name",
          "holder_document",
          "status",
          "e2e_id",
          "failure_reason",
          "decided_at",
          "created_at",
        ])
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .execute(),
      db
        .selectFrom("refunds")
        .select(["id", "contract_id", "milestone_id", "amount_cents", "status", "e2e_id", "decided_at", "created_at"])
        .where("user_id", "=", userId)
        .orderBy("created_at")
        .execute(),
      db
        .selectFrom("pix_charges")
        .select([
          "id",
          "milestone_id",
          "contract_id",
          "provider",
          "txid",
          "amount_cents",
          "status",
          "e2e_id",
          "expires_at",
          "paid_at",
          "claimed_at",
          "created_at",
        ])
        .where("merchant_id", "=", userId)
        .orderBy("created_at")
        .execute(),
      contractIds.length
        ? db.selectFrom("milestones").selectAll().where("contract_id", "in", contractIds).orderBy("seq").execute()
        : [],
      // A monthly contract's months: which milestone is which month (060).
      contractIds.length
        ? db
            .selectFrom("contract_months")
            .select(["contract_id", "month", "starts_on", "milestone_id"])
            .where("contract_id", "in", contractIds)
            .orderBy("starts_on")
            .execute()
        : [],
      db
        .selectFrom("ledger_entries as e")
        .innerJoin("ledger_transactions as t", "t.id", "e.transaction_id")
        .select(["e.id", "e.transaction_id", "e.account", "e.amount_cents", "e.created_at", "t.kind", "t.contract_id"])
        .where("e.user_id", "=", userId)
        .orderBy("e.created_at")
        .execute(),
      db
        .selectFrom("ledger_transactions")
        .select([
          "id",
          "kind",
          "contract_id",
          "milestone_id",
          "charge_id",
          "payout_id",
          "refund_id",
          "memo",
          "created_at",
        ])
        .where((eb) => eb.or([eb("merchant_id", "=", userId), eb("freelancer_id", "=", userId)]))
        .orderBy("created_at")
        .execute(),
      // The merchant's Pix Automático authorisations (062).
      db
        .selectFrom("pix_recurrences")
        .select(["id", "contract_id", "provider", "status", "amount_cents", "day", "created_at", "updated_at"])
        .where("merchant_id", "=", userId)
        .orderBy("created_at")
        .execute(),
    ]);
  return {
    payout_account: payoutAccount ?? null,
    payouts,
    refunds,
    pix_charges: charges,
    milestones,
    contract_months: months,
    pix_recurrences: recurrences,
    ledger_transactions: ledgerTransactions,
    ledger_entries: entries,
  };
}

/** The user's files in the order the ZIP has always listed them: photo, portfolio, services' images, messages, deliveries, identity; then time entries'. */
const FILE_ORDER = [
  "files/profile/",
  "files/portfolio/",
  "files/services/",
  "files/messages/",
  "files/deliveries/",
  "files/identity/",
  "files/timesheets/",
];
export const fileRank = (f: FileEntry) => FILE_ORDER.findIndex((prefix) => f.path.startsWith(prefix));
