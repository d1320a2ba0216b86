import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { action as accountAction } from "~/routes/api+/_account+/account";
import { action as loginAction } from "~/routes/api+/_auth+/login";
import { action as registerAction } from "~/routes/api+/_auth+/register";
import { action as emailAction } from "~/routes/api+/_account+/email";
import { loader as profileLoader } from "~/routes/api+/_account+/profile";
import { DELETED_NAME, DELETION_PLAN, REMOVED_MESSAGE, deleteAccount } from "~/services/accounts/deletion.server";
import { seal } from "~/services/accounts/sealed-secrets.server";
import { totpCode } from "~/services/accounts/two-factor.server";
import { approveContract, deliverContract, getContract } from "~/services/contracts/contracts.server";
import { acceptOffer, getApplication } from "~/services/marketplace/applications.server";
import { sendMessage } from "~/services/messaging/messages.server";
import { requestPasswordReset, updateProfile } from "~/services/accounts/accounts.server";
import { addPortfolioItem, listPortfolio } from "~/services/reputation/portfolio.server";
import { addServiceImage } from "~/services/catalog/service-images.server";
import { createService } from "~/services/catalog/services.server";
import { getContractReviews, replyToReview, writeReview } from "~/services/reputation/reviews.server";
import { getFreelancerProfile, listFreelancers } from "~/services/reputation/profiles.server";
import { getPublicProfile } from "~/services/discovery/public.server";
import { drainOutbox } from "~/services/platform/outbox.server";
import type { Mail } from "~/services/platform/mail.server";
import { readAttachment, readPhoto } from "~/services/platform/uploads.server";
import { db } from "../../db";
import { engine } from "../../db/dialect";
import { createApplication, createInvitation, createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { PNG_1X1, validService } from "../support/fixtures";
import { call, jsonRequest } from "../support/helpers";
import { merchant, negotiation, outcome } from "../support/market";
import { escrow, fund } from "../payments/support";

// Deleting one's own account (docs/product.md, "Exclusão da conta"), on both engines: what is
// erased and what stays (every table of the database is in the deletion plan, every personal
// column of the account's rows checked), files gone from the store, the other side's contract
// and reviews still there under "Conta excluída", the goodbye e-mail to the address the account
// had, the address free to register again, refusals while a contract runs or money is owed, and
// two deletions at once (one winner).

const PASSWORD = "segredo123";
const png = () => new Blob([PNG_1X1], { type: "image/png" });
const userRow = (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const remove = (token: string, body: unknown) =>
  call(accountAction, jsonRequest("/api/account", body, { method: "DELETE", token }));

let n = 0;
async function signedIn(user: UserRow) {
  const res = await call(loginAction, jsonRequest("/api/login", { email: user.email, password: PASSWORD }));
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

async function hired() {
  const { owner, applicant, application } = await negotiation("pending");
  const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
  await acceptOffer(owner, application.id, { offer_id: offer.id });
  return { owner, applicant, id: application.id };
}

/** A freelancer (known password) with a contract delivered and approved. */
async function finished() {
  const owner = await merchant();
  const applicant = await createUser(db, {
    account_type: "freelancer",
    email: `excluir${++n}.${Date.now()}@example.com`,
    password: PASSWORD,
    full_name: "Renata Apagada",
    display_name: "Renata",
    bio: "Desenvolvedora web em Recife.",
    skills: ["React", "Node"],
    city: "Recife",
  });
  const opp = await createOpportunity(db, { merchant_id: owner.id });
  const application = await createApplication(db, {
    opportunity: opp,
    freelancer_id: applicant.id,
    status: "pending",
    offers: [{ author: "freelancer", price_cents: 300_000, delivery_days: 20 }],
  });
  const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
  await acceptOffer(owner, application.id, { offer_id: offer.id });
  await deliverContract(applicant, application.id, { message: "Segue o trabalho pronto, com os arquivos-fonte." });
  await approveContract(owner, application.id);
  return { owner, applicant, id: application.id };
}

afterEach(() => {
  config.PAYMENTS = "off";
});

/** The engine's tables, less its own bookkeeping (migrations, full-text index shadows, rate limits). */
async function databaseTables() {
  const rows =
    engine === "postgres"
      ? await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`.execute(db)
      : await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(db);
  return rows.rows
    .map((r) => r.name)
    .filter((name) => !/^(sqlite_|kysely_|opportunities_fts|services_fts)/.test(name) && name !== "rate_limits")
    .sort();
}

/** The column naming the account, in each table the plan erases. */
const ERASED_BY: Record<string, string> = {
  sessions: "user_id",
  account_devices: "user_id",
  two_factor: "user_id",
  recovery_codes: "user_id",
  login_challenges: "user_id",
  passkeys: "user_id",
  webauthn_challenges: "user_id",
  password_resets: "user_id",
  email_tokens: "user_id",
  notifications: "user_id",
  conversation_reads: "user_id",
  portfolio_items: "user_id",
  email_opt_outs: "user_id",
  push_subscriptions: "user_id",
  push_opt_outs: "user_id",
  whatsapp_numbers: "user_id",
  whatsapp_opt_ins: "user_id",
  whatsapp_daily: "user_id",
  whatsapp_sends: "user_id",
  payout_accounts: "user_id",
  data_exports: "user_id",
  saved_searches: "user_id",
  events: "user_id",
  pending_files: "user_id",
  services: "freelancer_id",
};

describe("deleting one's account", () => {
  it("every table of the database has its place in the deletion plan", async () => {
    // The stored files are a table on PostgreSQL only (files in UPLOADS_DIR on SQLite).
    const planned = Object.keys(DELETION_PLAN).filter((t) => engine === "postgres" || t !== "photos");
    expect(await databaseTables()).toEqual(planned.sort());
    const erased = Object.entries(DELETION_PLAN)
      .filter(([, what]) => what === "erased")
      .map(([table]) => table);
    // Erased elsewhere than by user_id: invitations (either side), message files (with their
    // messages), stored files (by name), the outbox (all but the goodbye).
    expect(erased.filter((t) => !ERASED_BY[t]).sort()).toEqual([
      "invitations",
      "message_files",
      "outbox",
      "photos",
      "service_images", // with their services (cascade), the files after the commit
    ]);
  });

  it("anonymises the account, keeps the other side's record and lets the address register again", async () => {
    const { owner, applicant, id } = await finished();
    const email = applicant.email;
    const token = await signedIn(applicant);
    // What the account has: a photo, a portfolio item with an image, a message with a file, a
    // review with its text and a reply, a pending application elsewhere, an invitation, a
    // passkey, e-mail settings and notifications.
    const withPhoto = await updateProfile(applicant, {}, png());
    const photo = (await userRow(applicant.id)).photo_path!;
    expect(withPhoto).toBeTruthy();
    await addPortfolioItem(
      applicant,
      { title: "Loja da padaria", description: "Loja virtual em React com pagamento por Pix." },
      png(),
    );
    const portfolioImage = (
      await db
        .selectFrom("portfolio_items")
        .select("image_path")
        .where("user_id", "=", applicant.id)
        .executeTakeFirstOrThrow()
    ).image_path!;
    const service = await createService(applicant, validService);
    const [serviceImage] = await addServiceImage(applicant, service.id, png());
    await sendMessage(applicant, id, { body: "Meu telefone é 81 99999-0000.", confirm_contact: true }, [png()]);
    await sendMessage(owner, id, { body: "Obrigado pelo trabalho!" });
    const attachment = (
      await db
        .selectFrom("message_files")
        .select("stored_name")
        .where("application_id", "=", id)
        .executeTakeFirstOrThrow()
    ).stored_name;
    await writeReview(applicant, id, { rating: 4, comment: "Cliente atencioso, pagou em dia." });
    const aboutHer = await writeReview(owner, id, { rating: 5, comment: "Ótima profissional." });
    await replyToReview(applicant, aboutHer.id, { reply: "Obrigada, foi um prazer!" });
    const otherMerchant = await merchant();
    const otherOpp = await createOpportunity(db, { merchant_id: otherMerchant.id });
    const pending = await createApplication(db, {
      opportunity: otherOpp,
      freelancer_id: applicant.id,
      status: "pending",
      cover_letter: "Tenho cinco anos de experiência com lojas virtuais e posso começar já.",
      offers: [
        { author: "freelancer", price_cents: 100_000, delivery_days: 10, message: "Posso fazer por este valor." },
      ],
    });
    const at = new Date().toISOString();
    await createInvitation(db, {
      opportunity_id: otherOpp.id,
      freelancer_id: applicant.id,
      merchant_id: otherMerchant.id,
      message: "Venha trabalhar conosco.",
      at,
    });
    await db
      .insertInto("passkeys")
      .values({
        id: "cred-" + applicant.id,
        user_id: applicant.id,
        public_key: "pk",
        counter: 0,
        transports: "[]",
        name: "Notebook",
        created_at: at,
        last_used_at: null,
      })
      .execute();
    await db
      .insertInto("email_opt_outs")
      .values({ user_id: applicant.id, kind: "message_received", created_at: at })
      .execute();
    // A device that gets pushes, and a kind turned off for push.
    await db
      .insertInto("push_subscriptions")
      .values({
        id: crypto.randomUUID(),
        user_id: applicant.id,
        endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`,
        p256dh: "BA",
        auth: "AA",
        user_agent: null,
        created_at: at,
        last_sent_at: null,
      })
      .execute();
    await db
      .insertInto("push_opt_outs")
      .values({ user_id: applicant.id, kind: "offer_received", created_at: at })
      .execute();
    // A confirmed WhatsApp number, a kind turned on for it, the day's count and a message sent.
    await db
      .insertInto("whatsapp_numbers")
      .values({
        user_id: applicant.id,
        phone: "+5511912345678",
        code_hash: null,
        code_expires_at: null,
        codes_window_at: null,
        confirmed_at: at,
        opted_out_at: null,
        unusable_at: null,
        created_at: at,
      })
      .execute();
    await db
      .insertInto("whatsapp_opt_ins")
      .values({ user_id: applicant.id, kind: "offer_received", created_at: at })
      .execute();
    await db.insertInto("whatsapp_daily").values({ day: "2026-01-01", user_id: applicant.id, sent: 1 }).execute();
    await db
      .insertInto("whatsapp_sends")
      .values({
        id: `wamid.${crypto.randomUUID()}`,
        outbox_id: "x",
        user_id: applicant.id,
        status: "read",
        created_at: at,
        updated_at: at,
      })
      .execute();
    expect((await getPublicProfile(applicant.id)).id).toBe(applicant.id);
    expect(await readPhoto(photo)).not.toBeNull();
    expect(await readAttachment(attachment)).not.toBeNull();

    const wrong = await remove(token, { password: "errada-1234" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.password).toBe("Senha atual incorreta.");
    expect((await userRow(applicant.id)).deleted_at).toBeNull();

    const done = await remove(token, { password: PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body.message).toBe("Sua conta foi excluída. Enviamos uma confirmação para o seu e-mail.");
    expect(done.headers.get("Set-Cookie")).toMatch(/freela_session=;.*Max-Age=0/i);

    // The row: every personal column erased or replaced.
    const row = await userRow(applicant.id);
    expect(row).toMatchObject({
      full_name: DELETED_NAME,
      display_name: null,
      password_hash: "",
      bio: "",
      skills: "[]",
      photo_path: null,
      hidden_photo_path: null,
      city: null,
      search_city: null,
      public_profile: 0,
      email_verified_at: null,
      profile_hidden_reason: null,
      sanction_reason: null,
    });
    expect(row.deleted_at).toBe(done.body.deleted_at);
    expect(row.email).toMatch(/^excluida-[0-9a-f-]{36}@conta-excluida\.invalid$/);
    for (const column of ["search_text", "search_skills", "sort_name"] as const) {
      expect(row[column]).not.toMatch(/renata|react|recife/i);
    }
    // Erased tables: nothing of the account left.
    for (const [table, column] of Object.entries(ERASED_BY)) {
      const left = await sql<{
        n: number;
      }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${applicant.id}`.execute(db);
      expect([table, Number(left.rows[0]!.n)]).toEqual([table, 0]);
    }
    expect(await db.selectFrom("invitations").select("id").where("freelancer_id", "=", applicant.id).execute()).toEqual(
      [],
    );
    expect(await db.selectFrom("message_files").select("id").where("application_id", "=", id).execute()).toEqual([]);
    const outbox = await db
      .selectFrom("outbox")
      .select(["kind", "status"])
      .where("user_id", "=", applicant.id)
      .execute();
    expect(outbox).toEqual([{ kind: "account_deleted", status: "pending" }]);
    // Files gone from the store.
    expect(await readPhoto(photo)).toBeNull();
    expect(await readPhoto(portfolioImage)).toBeNull();
    expect(await readPhoto(serviceImage!.url.replace("/uploads/", ""))).toBeNull();
    expect(await readAttachment(attachment)).toBeNull();
    expect(await listPortfolio(applicant.id)).toEqual([]);
    // Anonymised rows: text erased, the facts kept.
    const messages = await db
      .selectFrom("messages")
      .select(["author", "body"])
      .where("application_id", "=", id)
      .orderBy("seq")
      .execute();
    expect(messages).toEqual([
      { author: "freelancer", body: REMOVED_MESSAGE },
      { author: "merchant", body: "Obrigado pelo trabalho!" },
    ]);
    const application = await db
      .selectFrom("applications")
      .select(["status", "cover_letter"])
      .where("id", "=", pending.id)
      .executeTakeFirstOrThrow();
    expect(application).toEqual({ status: "withdrawn", cover_letter: "" });
    const offers = await db.selectFrom("offers").select("message").where("application_id", "=", pending.id).execute();
    expect(offers.every((o) => o.message === null)).toBe(true);
    const reviews = await db
      .selectFrom("reviews")
      .select(["author_id", "rating", "comment", "reply"])
      .where("contract_id", "=", id)
      .orderBy("author_role")
      .execute();
    expect(reviews).toEqual([
      { author_id: applicant.id, rating: 4, comment: "", reply: null },
      { author_id: owner.id, rating: 5, comment: "Ótima profissional.", reply: null },
    ]);

    // Signed out everywhere, and no way back in with the old address or password.
    expect((await call(profileLoader, jsonRequest("/api/profile", undefined, { token }))).status).toBe(401);
    expect((await call(loginAction, jsonRequest("/api/login", { email, password: PASSWORD }))).status).toBe(401);
    // Nor by the placeholder address: no reset link is ever made for it.
    await requestPasswordReset(row.email);
    expect(await db.selectFrom("password_resets").select("id").where("user_id", "=", applicant.id).execute()).toEqual(
      [],
    );
    // Out of the directory and the profile pages.
    await expect(getFreelancerProfile(applicant.id, owner.id)).rejects.toMatchObject({ status: 404 });
    await expect(getPublicProfile(applicant.id)).rejects.toMatchObject({ status: 404 });
    const directory = await listFreelancers({ q: "Renata" });
    expect(directory.data.map((p) => p.id)).not.toContain(applicant.id);

    // The merchant's contract and reviews are still there, the other side named "Conta excluída".
    const contract = await getContract(owner, id);
    expect(contract.status).toBe("completed");
    expect(contract.freelancer.display_name).toBe(DELETED_NAME);
    const contractReviews = await getContractReviews(owner, id);
    expect(JSON.stringify(contractReviews)).toContain(DELETED_NAME);
    expect(JSON.stringify(contractReviews)).not.toContain("Renata");

    // The goodbye goes to the address the account had.
    const sent: Mail[] = [];
    await drainOutbox({ send: async (mail) => void sent.push(mail) });
    const goodbye = sent.filter((m) => m.to === email);
    expect(goodbye).toHaveLength(1);
    expect(goodbye[0]!.subject).toBe("Freela: sua conta foi excluída");
    expect(goodbye[0]!.text).toContain("Olá, Renata!");
    expect(sent.some((m) => m.to.endsWith(".invalid"))).toBe(false);

    // The address may register again, as a new account.
    const again = await call(
      registerAction,
      jsonRequest("/api/register", {
        full_name: "Renata Nova",
        email,
        password: "outra-senha-1",
        account_type: "freelancer",
      }),
    );
    expect(again.status).toBe(201);
    expect(again.body.data.user.id).not.toBe(applicant.id);
  });

  it("is refused with the reason while a contract runs", async () => {
    const { applicant, id } = await hired();
    const before = await userRow(applicant.id);
    await expect(deleteAccount(applicant, { password: "freela123" })).rejects.toMatchObject({
      status: 409,
      key: "account_delete_contract_running",
    });
    expect(await userRow(applicant.id)).toEqual(before);
    expect((await getContract(applicant, id)).freelancer.display_name).not.toBe(DELETED_NAME);
  });

  it("is refused while money is held or owed: escrow on a running contract, a balance to withdraw", async () => {
    escrow();
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    await deliverContract(applicant, id, { message: "Entrega pronta, com os arquivos combinados." });
    await approveContract(owner, id);
    // The contract is over; the freelancer has not withdrawn the released money yet.
    expect((await getContract(applicant, id)).status).toBe("completed");
    await expect(deleteAccount(applicant, { password: "freela123" })).rejects.toMatchObject({
      status: 409,
      key: "account_delete_money",
    });
    expect((await userRow(applicant.id)).deleted_at).toBeNull();
    // The merchant owes nothing and is owed nothing: their account may go.
    expect(await outcome(deleteAccount(owner, { password: "freela123" }))).toBe(200);
  });

  it("asks for the second factor when two-factor is on", async () => {
    const user = await createUser(db, { account_type: "merchant", password: PASSWORD });
    const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";
    const at = new Date().toISOString();
    await db
      .insertInto("two_factor")
      .values({ user_id: user.id, secret: seal(secret, user.id), confirmed_at: at, last_step: 0, created_at: at })
      .execute();
    await expect(deleteAccount(user, { password: PASSWORD })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { code: "two_factor_code_required" },
    });
    await expect(
      deleteAccount(user, { password: PASSWORD, code: "000000" === totpCode(secret) ? "111111" : "000000" }),
    ).rejects.toMatchObject({ status: 422 });
    expect(await outcome(deleteAccount(user, { password: PASSWORD, code: totpCode(secret) }))).toBe(200);
    expect(await db.selectFrom("two_factor").select("user_id").where("user_id", "=", user.id).execute()).toEqual([]);
  });

  it("cannot be blocked by someone taking the address the account would get", async () => {
    const victim = await createUser(db, { account_type: "freelancer", password: PASSWORD });
    const squatted = `excluida-${victim.id}@conta-excluida.invalid`;
    // The reserved domain is refused wherever an address is given, in any letter case.
    for (const email of [squatted, squatted.toUpperCase(), "alguem@qualquer.invalid"]) {
      const res = await call(
        registerAction,
        jsonRequest("/api/register", {
          full_name: "Posseiro",
          email,
          password: "segredo12345",
          account_type: "merchant",
        }),
      );
      expect([email, res.status, res.body.errors?.email]).toEqual([
        email,
        422,
        "Endereços em domínios .invalid não recebem e-mail: informe outro e-mail.",
      ]);
    }
    const other = await createUser(db, { account_type: "merchant", password: PASSWORD });
    const change = await call(
      emailAction,
      jsonRequest("/api/account/email", { email: squatted, password: PASSWORD }, { token: await signedIn(other) }),
    );
    expect([change.status, change.body.errors?.email]).toEqual([
      422,
      "Endereços em domínios .invalid não recebem e-mail: informe outro e-mail.",
    ]);
    expect(await db.selectFrom("users").select("id").where("email", "=", squatted).execute()).toEqual([]);
    // So the deletion always finds its address free.
    const done = await remove(await signedIn(victim), { password: PASSWORD });
    expect(done.status).toBe(200);
    expect((await userRow(victim.id)).email).toBe(squatted);
  });

  it("refuses operators", async () => {
    const operator = await createUser(db, { account_type: "operator", password: PASSWORD });
    await expect(deleteAccount(operator, { password: PASSWORD })).rejects.toMatchObject({
      status: 403,
      key: "account_delete_operator",
    });
  });

  it("is never half done when a hire of the account comes at the same moment", async () => {
    for (let i = 0; i < 3; i++) {
      const { owner, applicant, application } = await negotiation("pending");
      const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
      const [hire, deletion] = await Promise.all([
        outcome(acceptOffer(owner, application.id, { offer_id: offer.id })),
        outcome(deleteAccount(applicant, { password: "freela123" })),
      ]);
      const contract = await db
        .selectFrom("contracts")
        .select("id")
        .where("id", "=", application.id)
        .executeTakeFirst();
      const row = await userRow(applicant.id);
      // Either the hire won (a contract, the account kept: 409 for the deletion) or the deletion
      // did (no contract: the application was withdrawn under the hire).
      if (contract) expect([hire, deletion, row.deleted_at]).toEqual([200, 409, null]);
      else expect([hire, deletion, Boolean(row.deleted_at)]).toEqual([409, 200, true]);
    }
  });

  it("has one winner when the account is deleted twice at once", async () => {
    const user = await createUser(db, { account_type: "freelancer", password: PASSWORD });
    const results = await Promise.all([
      outcome(deleteAccount(user, { password: PASSWORD })),
      outcome(deleteAccount(user, { password: PASSWORD })),
    ]);
    expect(results.sort()).toEqual([200, 409]);
    const goodbyes = await db
      .selectFrom("outbox")
      .select("id")
      .where("user_id", "=", user.id)
      .where("kind", "=", "account_deleted")
      .execute();
    expect(goodbyes).toHaveLength(1);
  });
});
