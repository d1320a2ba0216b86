import { createHash, randomBytes, randomUUID } from "node:crypto";
import { unzipSync } from "fflate";
import { sql } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { db, engine } from "../../db";
import {
  createApplication,
  createInvitation,
  createOpportunity,
  createUser,
  DEFAULT_PASSWORD,
} from "../../db/factories";
import type { UserRow } from "../../db/schema";
import {
  buildDataExport,
  claimDataExport,
  writeZip,
  dataExportState,
  readDataExport,
  requestDataExport,
  runDataExports,
} from "~/services/accounts/data-export.server";
import { createSession } from "~/services/accounts/sessions.server";
import { sendMessage } from "~/services/messaging/messages.server";
import { negotiation } from "../support/market";
import { deleteAccount } from "~/services/accounts/deletion.server";
import { pruneExpired } from "~/services/platform/housekeeping.server";
import { openExportFile, readExportFile, type ExportFileWriter } from "~/services/platform/export-files.server";
import { saveAttachment, savePhoto } from "~/services/platform/uploads.server";
import { PNG_1X1, validService } from "../support/fixtures";
import { addServiceImage } from "~/services/catalog/service-images.server";
import { createService } from "~/services/catalog/services.server";

// The copy of a user's data (docs/product.md, "Seus dados"), on both engines: what the ZIP holds
// for a user with data of every kind, that nothing private of the other side is in it, the job's
// claim (one winner, a lapsed claim taken over), expiry (410) and someone else's copy (404).

/** The names of the ZIPs the export job stored, in order (the store itself is unchanged). */
const savedZips: string[] = [];
vi.mock("~/services/platform/export-files.server", async (original) => {
  const files = await original<typeof import("~/services/platform/export-files.server")>();
  return {
    ...files,
    openExportFile: async () => {
      const file = await files.openExportFile();
      savedZips.push(file.name);
      return file;
    },
  };
});

/** Makes recording a copy as ready fail in the database, until the returned function is called. */
async function failReadyCopies() {
  if (engine === "postgres") {
    await sql`CREATE FUNCTION fail_ready_copy() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'copy refused'; END $$ LANGUAGE plpgsql`.execute(
      db,
    );
    await sql`CREATE TRIGGER fail_ready_copy BEFORE UPDATE ON data_exports FOR EACH ROW WHEN (NEW.status = 'ready') EXECUTE FUNCTION fail_ready_copy()`.execute(
      db,
    );
    return async () => {
      await sql`DROP TRIGGER fail_ready_copy ON data_exports`.execute(db);
      await sql`DROP FUNCTION fail_ready_copy()`.execute(db);
    };
  }
  await sql`CREATE TRIGGER fail_ready_copy BEFORE UPDATE ON data_exports WHEN NEW.status = 'ready' BEGIN SELECT RAISE(ABORT, 'copy refused'); END`.execute(
    db,
  );
  return async () => void (await sql`DROP TRIGGER fail_ready_copy`.execute(db));
}

const png = (name: string) => new File([PNG_1X1], name, { type: "image/png" });
const pdf = (text: string) => new File([Buffer.from(`%PDF-1.4\n${text}\n%%EOF\n`)], "entrega.pdf");

/** A merchant and a freelancer with a contract between them, and data of every kind, each side's marked with its name. */
async function marketplaceWithEverything() {
  const merchant = await createUser(db, { account_type: "merchant", full_name: "Maria Contratante", bio: "bio-M" });
  const freelancer = await createUser(db, {
    account_type: "freelancer",
    full_name: "Fábio Freela",
    bio: "bio-F",
    photo_path: await savePhoto(png("eu.png")),
  });
  const t = new Date().toISOString();
  const opportunity = await createOpportunity(db, { merchant_id: merchant.id, title: "vaga-M" });
  const application = await createApplication(db, {
    opportunity,
    freelancer_id: freelancer.id,
    cover_letter: "carta-F",
    status: "accepted",
    offers: [
      { author: "freelancer", price_cents: 200_000, delivery_days: 10, message: "oferta-F" },
      { author: "merchant", price_cents: 180_000, delivery_days: 10, message: "contraproposta-M" },
    ],
  });
  const contractId = application.id;
  // The merchant asked to cancel, and (as if) ended it, with their words; an operator's flag on it.
  await db
    .updateTable("contracts")
    .set({
      cancel_requested_by: "merchant",
      cancel_request_reason: "pedido-cancelar-M",
      ended_by: "merchant",
      end_reason: "fim-M",
      flagged_at: t,
      flag_reason: "suspended",
    })
    .where("id", "=", contractId)
    .execute();
  // Another application of the freelancer, refused with the merchant's message.
  const refused = await createApplication(db, {
    opportunity: await createOpportunity(db, { merchant_id: merchant.id, title: "vaga-2-M" }),
    freelancer_id: freelancer.id,
    cover_letter: "carta-2-F",
    status: "rejected",
    offers: [{ author: "freelancer", price_cents: 90_000, delivery_days: 5, message: "oferta-2-F" }],
  });
  await db.updateTable("applications").set({ rejection_message: "recusa-M" }).where("id", "=", refused.id).execute();
  // A delivery with a file, a change request, a cancellation asked.
  const delivery = randomUUID();
  const changes = randomUUID();
  await db
    .insertInto("contract_events")
    .values([
      {
        id: delivery,
        contract_id: contractId,
        seq: 2,
        kind: "delivered",
        author: "freelancer",
        message: "entrega-F",
        created_at: t,
      },
      {
        id: changes,
        contract_id: contractId,
        seq: 3,
        kind: "changes_requested",
        author: "merchant",
        message: "ajuste-M",
        created_at: t,
      },
    ])
    .execute();
  const deliveryFile = await saveAttachment(pdf("arquivo-F"), "files");
  await db
    .insertInto("contract_files")
    .values({ id: randomUUID(), contract_id: contractId, event_id: delivery, ...deliveryFile, created_at: t })
    .execute();
  const merchantFile = await saveAttachment(pdf("arquivo-M"), "files");
  await db
    .insertInto("contract_files")
    .values({ id: randomUUID(), contract_id: contractId, event_id: changes, ...merchantFile, created_at: t })
    .execute();
  // The conversation: one message each, the freelancer's with a file.
  await db
    .insertInto("conversations")
    .values({
      application_id: application.id,
      freelancer_id: freelancer.id,
      merchant_id: merchant.id,
      messages_count: 2,
      last_message_at: t,
    })
    .execute();
  const fMessage = randomUUID();
  await db
    .insertInto("messages")
    .values([
      {
        id: fMessage,
        application_id: application.id,
        seq: 1,
        author: "freelancer",
        body: "mensagem-F",
        hidden_at: null,
        hidden_reason: null,
        created_at: t,
      },
      {
        id: randomUUID(),
        application_id: application.id,
        seq: 2,
        author: "merchant",
        body: "mensagem-M",
        hidden_at: null,
        hidden_reason: null,
        created_at: t,
      },
    ])
    .execute();
  const messageFile = await saveAttachment(png("print.png"), "files");
  await db
    .insertInto("message_files")
    .values({ id: randomUUID(), application_id: application.id, message_id: fMessage, ...messageFile, created_at: t })
    .execute();
  // Reviews both ways (published), the merchant's reply to the freelancer's review.
  await db
    .insertInto("reviews")
    .values([
      {
        id: randomUUID(),
        contract_id: contractId,
        author_id: freelancer.id,
        subject_id: merchant.id,
        author_role: "freelancer",
        rating: 5,
        comment: "avaliacao-F",
        reply: "resposta-M",
        replied_at: t,
        publish_due_at: t,
        published_at: t,
        hidden_at: null,
        hidden_reason: null,
        reply_hidden_at: null,
        reply_hidden_reason: null,
        created_at: t,
      },
      {
        id: randomUUID(),
        contract_id: contractId,
        author_id: merchant.id,
        subject_id: freelancer.id,
        author_role: "merchant",
        rating: 4,
        comment: "avaliacao-M",
        reply: null,
        replied_at: null,
        publish_due_at: t,
        published_at: t,
        hidden_at: null,
        hidden_reason: null,
        reply_hidden_at: null,
        reply_hidden_reason: null,
        created_at: t,
      },
    ])
    .execute();
  // An invitation, notifications, settings, sessions, a passkey, two-factor, terms, a report, a portfolio item.
  await createInvitation(db, {
    opportunity_id: opportunity.id,
    freelancer_id: freelancer.id,
    merchant_id: merchant.id,
    message: "convite-M",
    at: t,
  });
  for (const user of [merchant, freelancer]) {
    const mark = user.id === merchant.id ? "M" : "F";
    await db
      .insertInto("notifications")
      .values({
        id: randomUUID(),
        user_id: user.id,
        kind: "contract_delivered",
        application_id: application.id,
        opportunity_id: null,
        detail: null,
        created_at: t,
        read_at: null,
      })
      .execute();
    await db.insertInto("email_opt_outs").values({ user_id: user.id, kind: "offer_received", created_at: t }).execute();
    await createSession(user.id, { userAgent: `agente-${mark}`, ip: "203.0.113.9", place: `lugar-${mark}` });
    await db
      .insertInto("passkeys")
      .values({
        id: `credencial-${mark}-${randomUUID()}`,
        user_id: user.id,
        public_key: `chave-publica-${mark}`,
        counter: 0,
        transports: "[]",
        name: `chave-${mark}`,
        created_at: t,
        last_used_at: null,
      })
      .execute();
    await db
      .insertInto("two_factor")
      .values({ user_id: user.id, secret: `SEGREDO${mark}TOTP`, confirmed_at: t, last_step: 0, created_at: t })
      .execute();
    await db
      .insertInto("recovery_codes")
      .values({ user_id: user.id, code_hash: `hash-codigo-${mark}`, used_at: null, created_at: t })
      .execute();
    await db
      .insertInto("terms_acceptances")
      .values({ id: randomUUID(), user_id: user.id, version: "2026-11-01", ip: "203.0.113.9", accepted_at: t })
      .execute();
    await db
      .insertInto("reports")
      .values({
        id: randomUUID(),
        reporter_id: user.id,
        target_type: "profile",
        target_id: mark === "M" ? freelancer.id : merchant.id,
        author_id: mark === "M" ? freelancer.id : merchant.id,
        reason: "spam",
        details: `denuncia-${mark}`,
        status: "open",
        resolution: null,
        resolution_reason: null,
        resolved_by: null,
        resolved_at: null,
        created_at: t,
      })
      .execute();
    await db
      .insertInto("portfolio_items")
      .values({
        id: randomUUID(),
        user_id: user.id,
        title: `portfolio-${mark}`,
        description: "",
        link: null,
        image_path: await savePhoto(png(`p-${mark}.png`)),
        created_at: t,
        updated_at: t,
      })
      .execute();
  }
  // A ready-made service of the freelancer's, with an image.
  const service = await createService(freelancer, { ...validService, title: "servico-F com imagem" });
  await addServiceImage(freelancer, service.id, png("s-F.png"));
  // Money: the freelancer's payout account and a payout, and ledger lines of both.
  await db
    .insertInto("payout_accounts")
    .values({
      user_id: freelancer.id,
      key_type: "email",
      pix_key: "pix-F@example.com",
      holder_name: "Fábio Freela",
      holder_document: "52998224725",
      updated_at: t,
    })
    .execute();
  const payout = randomUUID();
  await db
    .insertInto("payouts")
    .values({
      id: payout,
      user_id: freelancer.id,
      amount_cents: 1000,
      key_type: "email",
      pix_key: "pix-F@example.com",
      holder_name: "Fábio Freela",
      holder_document: "52998224725",
      status: "requested",
      e2e_id: null,
      failure_reason: null,
      decided_by: null,
      decided_at: null,
      created_at: t,
    })
    .execute();
  const txn = randomUUID();
  await db
    .insertInto("ledger_transactions")
    .values({
      id: txn,
      kind: "payout_requested",
      contract_id: null,
      milestone_id: null,
      charge_id: null,
      payout_id: payout,
      refund_id: null,
      merchant_id: null,
      freelancer_id: freelancer.id,
      memo: "saque-F",
      created_at: t,
    })
    .execute();
  await db
    .insertInto("ledger_entries")
    .values([
      {
        id: randomUUID(),
        transaction_id: txn,
        account: `available:${freelancer.id}`,
        user_id: freelancer.id,
        amount_cents: -1000,
        created_at: t,
      },
      {
        id: randomUUID(),
        transaction_id: txn,
        account: `payout:${payout}`,
        user_id: null,
        amount_cents: 1000,
        created_at: t,
      },
    ])
    .execute();
  return { merchant, freelancer, contractId, applicationId: application.id };
}

const bytesOf = async (body: ReadableStream<Uint8Array>) => new Uint8Array(await new Response(body).arrayBuffer());

/** Asks for, builds and opens a user's copy: the parsed JSON by file name, and the file list. */
async function copyOf(user: UserRow) {
  const { export: asked } = await requestDataExport(user);
  expect(await runDataExports()).toBeGreaterThanOrEqual(1);
  const { body } = await readDataExport(user, asked.id);
  const entries = unzipSync(await bytesOf(body));
  const text = Object.fromEntries(
    Object.entries(entries)
      .filter(([name]) => name.endsWith(".json"))
      .map(([name, bytes]) => [name, new TextDecoder().decode(bytes)]),
  );
  const json = Object.fromEntries(Object.entries(text).map(([name, t]) => [name, JSON.parse(t)]));
  return { entries, text, json, names: Object.keys(entries).sort(), all: Object.values(text).join("\n") };
}

describe("the copy of a user's data", () => {
  it("holds every kind of the user's data and their own files, and nothing private of the other side", async () => {
    const { merchant, freelancer } = await marketplaceWithEverything();
    const stranger = await createUser(db, { account_type: "freelancer", full_name: "Estranho", bio: "bio-X" });

    const f = await copyOf(freelancer);
    for (const kind of [
      "profile.json",
      "opportunities.json",
      "applications.json",
      "offers.json",
      "contracts.json",
      "deliveries.json",
      "change_requests.json",
      "contract_events.json",
      "disputes.json",
      "messages.json",
      "reviews.json",
      "notifications.json",
      "settings.json",
      "sessions.json",
      "passkeys.json",
      "two_factor.json",
      "terms_acceptances.json",
      "reports.json",
      "payments.json",
      "invitations.json",
      "portfolio.json",
      "services.json",
      "index.json",
    ]) {
      expect(f.names).toContain(kind);
    }
    expect(f.json["profile.json"]).toMatchObject({ id: freelancer.id, email: freelancer.email, bio: "bio-F" });
    expect(f.json["profile.json"].password_hash).toBeUndefined();
    expect(f.json["applications.json"].as_freelancer[0].cover_letter).toBe("carta-F");
    expect(f.json["offers.json"].map((o: { message: string }) => o.message).sort()).toEqual(["oferta-2-F", "oferta-F"]);
    expect(f.json["contracts.json"]).toHaveLength(1);
    // The operator's flag tells that a side was suspended: in neither copy.
    expect(f.json["contracts.json"][0].flag_reason).toBeUndefined();
    expect(
      f.json["applications.json"].as_freelancer.map((a: { cover_letter: string }) => a.cover_letter).sort(),
    ).toEqual(["carta-2-F", "carta-F"]);
    expect(f.json["deliveries.json"][0]).toMatchObject({ message: "entrega-F" });
    expect(f.json["deliveries.json"][0].files).toHaveLength(1);
    expect(f.json["messages.json"].map((m: { body: string }) => m.body)).toEqual(["mensagem-F"]);
    expect(f.json["reviews.json"].given[0].comment).toBe("avaliacao-F");
    expect(f.json["reviews.json"].received[0].comment).toBe("avaliacao-M");
    expect(f.json["notifications.json"]).toHaveLength(1);
    expect(f.json["settings.json"].email_turned_off).toEqual([expect.objectContaining({ kind: "offer_received" })]);
    expect(f.json["sessions.json"][0]).toMatchObject({ user_agent: "agente-F", ip: "203.0.113.9", place: "lugar-F" });
    expect(f.json["passkeys.json"]).toEqual([expect.objectContaining({ name: "chave-F" })]);
    expect(f.json["two_factor.json"]).toEqual({ enabled: true, recovery_codes_left: 1 });
    expect(f.json["terms_acceptances.json"]).toEqual([expect.objectContaining({ version: "2026-11-01" })]);
    expect(f.json["reports.json"][0].details).toBe("denuncia-F");
    expect(f.json["payments.json"].payout_account.pix_key).toBe("pix-F@example.com");
    expect(f.json["payments.json"].payouts).toHaveLength(1);
    expect(f.json["payments.json"].ledger_entries).toEqual([expect.objectContaining({ amount_cents: -1000 })]);
    expect(f.json["invitations.json"]).toEqual([
      expect.objectContaining({ freelancer_id: freelancer.id, message: null }),
    ]);
    expect(f.json["portfolio.json"][0].title).toBe("portfolio-F");
    expect(f.json["services.json"][0].images).toEqual([expect.objectContaining({ position: 0 })]);
    // Their own files: the photo, the portfolio and service images, the delivery file and the message's file.
    const files = f.names.filter((n) => n.startsWith("files/"));
    expect(files.map((n) => n.split("/")[1]).sort()).toEqual([
      "deliveries",
      "messages",
      "portfolio",
      "profile",
      "services",
    ]);
    expect(f.json["index.json"].files.sort()).toEqual(files);
    expect(f.json["index.json"].missing_files).toEqual([]);
    const delivered = files.find((n) => n.startsWith("files/deliveries/"))!;
    expect(new TextDecoder().decode(f.entries[delivered])).toContain("arquivo-F");
    // Never the other side's private data, never secrets, never another user's data.
    for (const other of [
      "recusa-M",
      "pedido-cancelar-M",
      "fim-M",
      "resposta-M",
      "mensagem-M",
      "contraproposta-M",
      "convite-M",
      "denuncia-M",
      "bio-M",
      "ajuste-M",
      "portfolio-M",
    ]) {
      expect(f.all).not.toContain(other);
    }
    expect(f.all).not.toContain(merchant.email);
    expect(f.all).not.toContain("Maria Contratante");
    for (const secret of [
      "SEGREDOFTOTP",
      "hash-codigo-F",
      "chave-publica-F",
      "credencial-F",
      freelancer.password_hash,
    ]) {
      expect(f.all).not.toContain(secret);
    }
    expect(f.all).not.toContain(stranger.id);
    expect(f.all).not.toContain("bio-X");
    for (const name of files) expect(new TextDecoder().decode(f.entries[name])).not.toContain("arquivo-M");

    // The merchant's copy: their side, not the freelancer's words.
    const m = await copyOf(merchant);
    expect(m.json["opportunities.json"][0].title).toBe("vaga-M");
    expect(m.json["applications.json"].as_merchant).toHaveLength(2);
    expect(m.json["change_requests.json"][0]).toMatchObject({ message: "ajuste-M" });
    expect(m.json["change_requests.json"][0].files).toHaveLength(1);
    expect(m.json["offers.json"].map((o: { message: string }) => o.message)).toEqual(["contraproposta-M"]);
    expect(m.json["invitations.json"][0].message).toBe("convite-M");
    expect(m.json["reviews.json"].received[0]).toMatchObject({ comment: "avaliacao-F", reply: "resposta-M" });
    // Their own words on the contract and the refusal are in their copy.
    expect(m.json["contracts.json"][0]).toMatchObject({
      cancel_request_reason: "pedido-cancelar-M",
      end_reason: "fim-M",
    });
    expect(
      m.json["applications.json"].as_merchant.map((a: { rejection_message: string }) => a.rejection_message),
    ).toContain("recusa-M");
    for (const other of [
      "carta-F",
      "oferta-F",
      "mensagem-F",
      "entrega-F",
      "denuncia-F",
      "bio-F",
      "pix-F@example.com",
      "agente-F",
    ]) {
      expect(m.all).not.toContain(other);
    }
    expect(m.all).not.toContain(freelancer.email);
    expect(m.names.filter((n) => n.startsWith("files/messages/"))).toEqual([]);
    expect(m.names.filter((n) => n.startsWith("files/profile/"))).toEqual([]);

    // The ready e-mail, with a link from APP_URL to the owner's download page.
    const mails = await db.selectFrom("outbox").selectAll().where("kind", "=", "data_export_ready").execute();
    expect(mails.map((r) => r.user_id).sort()).toEqual([freelancer.id, merchant.id].sort());
    const link = JSON.parse(mails.find((r) => r.user_id === freelancer.id)!.payload!).params.link as string;
    expect(link).toMatch(/^http:\/\/localhost:\d+\/account\/data-export\/[0-9a-f-]{36}$/);
  });

  it("streams a large copy to the store in small pieces, and its ZIP is valid and complete", async () => {
    const { applicant, application } = await negotiation("pending");
    // 12 files of 3 MB (incompressible), four to a message: 36 MB of the user's own files.
    const sent = new Map<string, string>();
    for (let m = 0; m < 3; m++) {
      const files = Array.from({ length: 4 }, (_, i) => {
        const body = Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(3 * 1024 * 1024), Buffer.from("\n%%EOF\n")]);
        const name = `grande-${m}-${i}.pdf`;
        sent.set(name, createHash("sha256").update(body).digest("hex"));
        return new File([body], name);
      });
      await sendMessage(applicant, application.id, { body: `Parte ${m + 1}` }, files);
    }
    // The writer the store gives, watched: how many pieces, the largest, what was written in all.
    const file = await openExportFile();
    const pieces: number[] = [];
    const watched: ExportFileWriter = {
      ...file,
      write: async (chunk) => {
        pieces.push(chunk.byteLength);
        await file.write(chunk);
      },
    };
    const size = await writeZip(applicant.id, watched);
    await file.close();
    expect(size).toBeGreaterThan(36 * 1024 * 1024);
    expect(pieces.reduce((a, b) => a + b, 0)).toBe(size);
    expect(Math.max(...pieces)).toBeLessThanOrEqual(256 * 1024);
    expect(pieces.length).toBeGreaterThanOrEqual(Math.floor(size / (256 * 1024)));
    if (engine === "postgres") {
      // Kept in rows of 8 MB, read back in order.
      const rows = await db
        .selectFrom("photos")
        .select("name")
        .where("name", ">=", `${file.name}#`)
        .where("name", "<", `${file.name}$`)
        .execute();
      expect(rows.length).toBe(Math.ceil(size / (8 * 1024 * 1024)));
    }

    const stored = await readExportFile(file.name);
    expect(stored!.size).toBe(size);
    const entries = unzipSync(await bytesOf(stored!.body));
    const index = JSON.parse(new TextDecoder().decode(entries["index.json"]));
    const messageFiles = Object.keys(entries).filter((n) => n.startsWith("files/messages/"));
    expect(messageFiles).toHaveLength(12);
    expect(index.files.sort()).toEqual(messageFiles.sort());
    expect(index.missing_files).toEqual([]);
    for (const path of messageFiles) {
      const original = path.replace(/^.*\/[0-9a-f-]{36}-/, "");
      expect([original, createHash("sha256").update(entries[path]!).digest("hex")]).toEqual([
        original,
        sent.get(original),
      ]);
    }
    expect(JSON.parse(new TextDecoder().decode(entries["messages.json"]))).toHaveLength(3);
  }, 60_000);

  it("keeps one waiting copy per account, then limits the asks", async () => {
    const user = await createUser(db);
    const first = await requestDataExport(user);
    expect(first.created).toBe(true);
    expect(first.export).toMatchObject({ status: "pending", download_url: null });
    const again = await Promise.all([requestDataExport(user), requestDataExport(user)]);
    expect(again.map((r) => [r.created, r.export.id])).toEqual([
      [false, first.export.id],
      [false, first.export.id],
    ]);
    expect(await db.selectFrom("data_exports").select("id").where("user_id", "=", user.id).execute()).toHaveLength(1);
    await runDataExports();
    expect((await dataExportState(user))?.status).toBe("ready");
    expect((await requestDataExport(user)).created).toBe(true);
    await runDataExports();
    expect((await requestDataExport(user)).created).toBe(true);
    await runDataExports();
    await expect(requestDataExport(user)).rejects.toMatchObject({ status: 429, message: "data_export_rate_limited" });
  });

  it("is built by one job when two claim it at once, and again after a job died mid-build", async () => {
    const user = await createUser(db);
    const { export: asked } = await requestDataExport(user);
    const claims = await Promise.all([claimDataExport(), claimDataExport()]);
    const winners = claims.filter((c) => c !== null);
    expect(winners).toHaveLength(1);
    expect(winners[0]!.id).toBe(asked.id);
    // The winner "dies" before recording anything: nothing is claimable until its lease ends.
    expect(await claimDataExport()).toBeNull();
    const later = new Date(Date.now() + 11 * 60_000);
    const retry = await claimDataExport(later);
    expect(retry?.id).toBe(asked.id);
    expect(retry?.attempts).toBe(2);
    // The first job comes back and tries to record its build: its claim lapsed, nothing is recorded.
    expect(await buildDataExport(winners[0]!)).toBe(false);
    expect((await dataExportState(user))?.status).toBe("pending");
    expect(await buildDataExport(retry!, later)).toBe(true);
    expect((await dataExportState(user, later))?.status).toBe("ready");
    const mails = await db
      .selectFrom("outbox")
      .select("id")
      .where("user_id", "=", user.id)
      .where("kind", "=", "data_export_ready")
      .execute();
    expect(mails).toHaveLength(1);
  });

  it("leaves no ZIP behind when recording it fails, and the job builds the copy again", async () => {
    const user = await createUser(db);
    const { export: asked } = await requestDataExport(user);
    const restore = await failReadyCopies();
    try {
      expect(await runDataExports({ limit: 1 })).toBe(0);
    } finally {
      await restore();
    }
    const failed = savedZips.at(-1)!;
    expect(await readExportFile(failed)).toBeNull();
    const row = await db.selectFrom("data_exports").selectAll().where("id", "=", asked.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "pending", claim: null, file_name: null, attempts: 1 });
    expect(row.last_error).toContain("copy refused");
    // The next run builds it, and that ZIP stays.
    expect(await runDataExports({ limit: 1 })).toBe(1);
    const built = savedZips.at(-1)!;
    expect(built).not.toBe(failed);
    expect(await readExportFile(built)).not.toBeNull();
    expect((await dataExportState(user))?.status).toBe("ready");
  });

  it("is downloaded by its owner only, for 7 days, then answers 410 and its file is gone", async () => {
    const owner = await createUser(db);
    const other = await createUser(db);
    const { export: asked } = await requestDataExport(owner);
    await expect(readDataExport(owner, asked.id)).rejects.toMatchObject({ status: 409 });
    await runDataExports();
    const ready = (await dataExportState(owner))!;
    expect(ready.status).toBe("ready");
    expect(ready.download_url).toBe(`/account/data-export/${asked.id}`);
    expect(Date.parse(ready.expires_at!) - Date.parse(ready.ready_at!)).toBe(7 * 86_400_000);
    await expect(readDataExport(other, asked.id)).rejects.toMatchObject({ status: 404 });
    await expect(readDataExport(owner, randomUUID())).rejects.toMatchObject({ status: 404 });
    expect((await readDataExport(owner, asked.id)).name).toMatch(/^freela-meus-dados-\d{4}-\d{2}-\d{2}\.zip$/);

    const after = new Date(Date.parse(ready.expires_at!) + 1000);
    await expect(readDataExport(owner, asked.id, after)).rejects.toMatchObject({
      status: 410,
      message: "data_export_expired",
    });
    expect((await dataExportState(owner, after))?.status).toBe("expired");
    const { file_name } = await db
      .selectFrom("data_exports")
      .select("file_name")
      .where("id", "=", asked.id)
      .executeTakeFirstOrThrow();
    // Other tests' copies of this file expire too: at least this one; a second sweep finds nothing.
    expect((await pruneExpired(after)).dataExports).toBeGreaterThanOrEqual(1);
    expect((await pruneExpired(after)).dataExports).toBe(0);
    const row = await db.selectFrom("data_exports").selectAll().where("id", "=", asked.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "expired", file_name: null });
    expect(await readExportFile(file_name!)).toBeNull();
    await expect(readDataExport(owner, asked.id)).rejects.toMatchObject({ status: 410 });
  });

  it("goes with the account when its owner deletes it: the rows and the ZIPs", async () => {
    const owner = await createUser(db, { account_type: "freelancer" });
    const { export: asked } = await requestDataExport(owner);
    await runDataExports();
    const { file_name } = await db
      .selectFrom("data_exports")
      .select("file_name")
      .where("id", "=", asked.id)
      .executeTakeFirstOrThrow();
    expect(await readExportFile(file_name!)).not.toBeNull();
    await deleteAccount(owner, { password: DEFAULT_PASSWORD });
    expect(await db.selectFrom("data_exports").select("id").where("user_id", "=", owner.id).execute()).toEqual([]);
    expect(await readExportFile(file_name!)).toBeNull();
  });
});
