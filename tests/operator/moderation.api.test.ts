import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { login } from "~/services/accounts/accounts.server";
import { findSessionUser } from "~/services/accounts/sessions.server";
import { sendMessage, listMessages, getMessageFile, unreadMessages } from "~/services/messaging/messages.server";
import { getOpportunity, listOpportunities } from "~/services/marketplace/opportunities.server";
import { applyToOpportunity } from "~/services/marketplace/applications.server";
import { writeReview, listUserReviews, getContractReviews } from "~/services/reputation/reviews.server";
import { getFreelancerProfile, listFreelancers } from "~/services/reputation/profiles.server";
import { listNotifications } from "~/services/messaging/notifications.server";
import { drainOutbox } from "~/services/platform/outbox.server";
import type { Mail } from "~/services/platform/mail.server";
import {
  listReportQueue,
  reportContent,
  resolveReports,
  restoreContent,
  getReportCase,
} from "~/services/operator/reports.server";
import { sanctionUser } from "~/services/operator/sanctions.server";
import { updateSettings } from "~/services/operator/settings.server";
import { decideHeldOpportunity, listHeldOpportunities } from "~/services/operator/premoderation.server";
import { listMembers, getMember } from "~/services/operator/members.server";
import * as reportsApi from "~/routes/api+/reports+/_index";
import * as queueApi from "~/routes/api+/admin+/reports._index";
import * as caseApi from "~/routes/api+/admin+/reports.$type.$id";
import * as resolveApi from "~/routes/api+/admin+/reports.$type.$id.resolve";
import * as restoreApi from "~/routes/api+/admin+/content.$type.$id.restore";
import * as usersApi from "~/routes/api+/admin+/users._index";
import * as userApi from "~/routes/api+/admin+/users.$id";
import * as sanctionsApi from "~/routes/api+/admin+/users.$id.sanctions";
import * as heldApi from "~/routes/api+/admin+/premoderation._index";
import * as decideApi from "~/routes/api+/admin+/premoderation.$uuid";
import * as settingsApi from "~/routes/api+/admin+/settings";
import * as opportunitiesApi from "~/routes/api+/opportunities+/_index";
import * as loginApi from "~/routes/api+/_auth+/login";
import { PNG_1X1 } from "../support/fixtures";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { outcome } from "../support/market";
import { auditCount, auditRows, get, post, signedInOperator } from "./support";

/** A merchant's open opportunity with a freelancer's application and a message each way. */
async function conversation() {
  const merchant = await signedInUser({ account_type: "merchant" });
  const freelancer = await signedInUser({ account_type: "freelancer" });
  const opportunity = await createOpportunity(db, { merchant_id: merchant.user.id, vacancies: 3 });
  const application = await createApplication(db, { opportunity, freelancer_id: freelancer.user.id });
  const fromMerchant = await sendMessage(merchant.user, application.id, {
    body: "Pode me pagar por fora?",
    // Sent past the notice about contacts (docs/product.md, "Contatos antes do pagamento").
    confirm_contact: true,
  });
  return { merchant, freelancer, opportunity, application, fromMerchant };
}

/** A completed contract the two sides reviewed (both published), and the freelancer's reply. */
async function reviewedContract() {
  const merchant = await signedInUser({ account_type: "merchant" });
  const freelancer = await signedInUser({ account_type: "freelancer" });
  const opportunity = await createOpportunity(db, { merchant_id: merchant.user.id });
  const application = await createApplication(db, {
    opportunity,
    freelancer_id: freelancer.user.id,
    status: "accepted",
  });
  await db
    .updateTable("contracts")
    .set({ status: "completed", deliveries_count: 1, ended_at: new Date().toISOString(), ended_by: "merchant" })
    .where("id", "=", application.id)
    .execute();
  const byMerchant = await writeReview(merchant.user, application.id, { rating: 1, comment: "Um lixo de trabalho." });
  await writeReview(freelancer.user, application.id, { rating: 5, comment: "Ótimo cliente." });
  await db
    .updateTable("reviews")
    .set({ reply: "Mentira sua.", replied_at: new Date().toISOString() })
    .where("id", "=", byMerchant.id)
    .execute();
  return { merchant, freelancer, application, review: byMerchant };
}

const resolve = (operator: UserRow, type: string, id: string, input: Record<string, unknown>) =>
  resolveReports(operator, type, id, input);

describe("reporting", () => {
  it("anyone signed in reports what they see; the author is not told who; one open report per target", async () => {
    const { merchant, freelancer, opportunity, fromMerchant } = await conversation();
    const other = await signedInUser({ account_type: "freelancer" });
    const created = await call(
      reportsApi.action,
      jsonRequest(
        "/api/reports",
        { target_type: "opportunity", target_id: opportunity.uuid, reason: "fraud", details: "Pede Pix antecipado." },
        { token: other.token },
      ),
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      data: { status: "open" },
      message: "Recebemos sua denúncia. A equipe do Freela vai analisar.",
    });
    const again = await call(
      reportsApi.action,
      jsonRequest(
        "/api/reports",
        { target_type: "opportunity", target_id: opportunity.uuid, reason: "spam" },
        { token: other.token },
      ),
    );
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("Você já denunciou isto; a equipe do Freela está analisando.");
    // The message, by the other side of its conversation; the profile, by anyone.
    expect(
      await outcome(
        reportContent(freelancer.user, { target_type: "message", target_id: fromMerchant.id, reason: "off_platform" }),
      ),
    ).toBe(200);
    expect(
      await outcome(
        reportContent(other.user, { target_type: "profile", target_id: merchant.user.id, reason: "fraud" }),
      ),
    ).toBe(200);
    // Nothing tells the reported merchant.
    const notices = await listNotifications(merchant.user, {});
    expect(notices.data).toHaveLength(0);
  });

  it("refuses one's own content, what one cannot see, bad input, visitors and operators", async () => {
    const { merchant, fromMerchant, opportunity } = await conversation();
    const stranger = await signedInUser({ account_type: "freelancer" });
    const otherMerchant = await signedInUser({ account_type: "merchant" });
    const report = (who: UserRow, type: string, id: string) =>
      outcome(reportContent(who as never, { target_type: type, target_id: id, reason: "spam" }));
    expect(await report(merchant.user, "message", fromMerchant.id)).toBe(422);
    expect(await report(merchant.user, "opportunity", opportunity.uuid)).toBe(422);
    // A message of a conversation one is not in; another merchant's opportunity is not shown to a merchant.
    expect(await report(stranger.user, "message", fromMerchant.id)).toBe(404);
    expect(await report(otherMerchant.user, "opportunity", crypto.randomUUID())).toBe(404);
    const bad = await call(
      reportsApi.action,
      jsonRequest(
        "/api/reports",
        { target_type: "user", target_id: "x", reason: "boring", details: 5 },
        { token: stranger.token },
      ),
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      target_type: "Escolha o que denunciar.",
      target_id: "Escolha o que denunciar.",
      reason: "Escolha um motivo da lista.",
      details: "O comentário deve ter no máximo 1000 caracteres.",
    });
    expect((await call(reportsApi.action, jsonRequest("/api/reports", {}))).status).toBe(401);
    const operator = await signedInOperator();
    expect((await call(reportsApi.action, jsonRequest("/api/reports", {}, { token: operator.token }))).status).toBe(
      403,
    );
    expect(
      (await call(reportsApi.loader, jsonRequest("/api/reports", undefined, { token: stranger.token }))).status,
    ).toBe(405);
  });

  it("is rate limited: ten reports an hour", async () => {
    const reporter = await signedInUser({ account_type: "freelancer" });
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const target = await createUser(db, { account_type: "merchant" });
      statuses.push(
        await outcome(
          reportContent(reporter.user as never, { target_type: "profile", target_id: target.id, reason: "spam" }),
        ),
      );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
  });
});

describe("the queue", () => {
  it("groups the reports of one target with their reasons, filtered by kind, status and age", async () => {
    const { opportunity } = await conversation();
    const reporters = await Promise.all([1, 2, 3].map(() => signedInUser({ account_type: "freelancer" })));
    for (const [i, r] of reporters.entries()) {
      await reportContent(r.user, {
        target_type: "opportunity",
        target_id: opportunity.uuid,
        reason: i < 2 ? "spam" : "fraud",
      });
    }
    const operator = await signedInOperator();
    const queue = await get(queueApi, "/api/admin/reports?type=opportunity", operator.token);
    expect(queue.status).toBe(200);
    const group = queue.body.data.find((g: any) => g.target.id === opportunity.uuid);
    expect(group).toMatchObject({
      target: { type: "opportunity", id: opportunity.uuid },
      status: "open",
      reports_count: 3,
      reasons: { spam: 2, fraud: 1 },
      author: { id: opportunity.merchant_id },
      content: { title: opportunity.title, hidden: false, exists: true },
    });
    expect(queue.body.open_count).toBeGreaterThanOrEqual(1);
    expect((await listReportQueue({ type: "message" })).data.some((g) => g.target.id === opportunity.uuid)).toBe(false);
    expect((await listReportQueue({ age: "day" })).data.some((g) => g.target.id === opportunity.uuid)).toBe(true);
    expect((await listReportQueue({ age: "older" })).data.some((g) => g.target.id === opportunity.uuid)).toBe(false);
    // A week later it has waited "more than 7 days".
    const later = new Date(Date.now() + 8 * 86_400_000);
    expect((await listReportQueue({ age: "older" }, later)).data.some((g) => g.target.id === opportunity.uuid)).toBe(
      true,
    );
    const bad = await get(queueApi, "/api/admin/reports?status=lost&age=forever", operator.token);
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["age", "status"]);

    const detail = await get(caseApi, `/api/admin/reports/opportunity/${opportunity.uuid}`, operator.token, {
      type: "opportunity",
      id: opportunity.uuid,
    });
    expect(detail.status).toBe(200);
    expect(detail.body.data.reports).toHaveLength(3);
    expect(detail.body.data.open_count).toBe(3);
    expect(
      (await get(caseApi, "/api/admin/reports/opportunity/x", operator.token, { type: "opportunity", id: "x" })).status,
    ).toBe(404);
  });

  it("shows a message with its conversation around it", async () => {
    const { merchant, freelancer, application, fromMerchant } = await conversation();
    await sendMessage(freelancer.user, application.id, { body: "Não, só pelo Freela." });
    await reportContent(freelancer.user, {
      target_type: "message",
      target_id: fromMerchant.id,
      reason: "off_platform",
    });
    const detail = await getReportCase("message", fromMerchant.id);
    expect(detail.conversation.map((m) => [m.body, m.author])).toEqual([
      ["Pode me pagar por fora?", "merchant"],
      ["Não, só pelo Freela.", "freelancer"],
    ]);
    expect(detail.author?.id).toBe(merchant.user.id);
  });
});

describe("hiding: gone from every list, page and e-mail that showed it; its author told why", () => {
  it("an opportunity", async () => {
    const { merchant, freelancer, opportunity } = await conversation();
    const browsing = await signedInUser({ account_type: "freelancer" });
    await reportContent(browsing.user, { target_type: "opportunity", target_id: opportunity.uuid, reason: "fraud" });
    const operator = await signedInOperator();
    const before = await auditCount();
    const res = await post(
      resolveApi,
      `/api/admin/reports/opportunity/${opportunity.uuid}/resolve`,
      operator.token,
      {
        action: "hide",
        reason: "Pede pagamento fora da plataforma.",
      },
      { type: "opportunity", id: opportunity.uuid },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ resolved: 1, action: "hide", hidden: true });
    expect(await auditCount()).toBe(before + 1);

    const list = await listOpportunities(browsing.user, { per_page: 100 });
    expect(list.data.some((o) => o.uuid === opportunity.uuid)).toBe(false);
    const viaApi = await call(
      opportunitiesApi.loader,
      jsonRequest("/api/opportunities?per_page=100", undefined, { token: browsing.token }),
    );
    expect(viaApi.body.data.some((o: any) => o.uuid === opportunity.uuid)).toBe(false);
    expect(await outcome(getOpportunity(browsing.user, opportunity.uuid))).toBe(404);
    // Even for the freelancer who had applied to it.
    expect(await outcome(getOpportunity(freelancer.user, opportunity.uuid))).toBe(404);
    expect(
      await outcome(
        applyToOpportunity(browsing.user, opportunity.uuid, {
          cover_letter: "Tenho interesse e experiência nesse tipo de projeto.",
          price_cents: 100_000,
          delivery_days: 5,
        }),
      ),
    ).toBe(404);
    // Its owner still sees it, and why.
    const owned = await getOpportunity(merchant.user, opportunity.uuid);
    expect(owned.moderation).toEqual({
      hidden: true,
      hidden_reason: "Pede pagamento fora da plataforma.",
      held: false,
    });
    const notice = (await listNotifications(merchant.user, {})).data.find((n) => n.kind === "moderation_hidden");
    expect(notice?.detail).toEqual({ what: "opportunity", reason: "Pede pagamento fora da plataforma." });
    const queued = await db
      .selectFrom("outbox")
      .select(["kind", "detail"])
      .where("user_id", "=", merchant.user.id)
      .execute();
    expect(queued.map((q) => q.kind)).toContain("moderation_hidden");

    // Reversible: shown again, the author told.
    const restored = await post(
      restoreApi,
      `/api/admin/content/opportunity/${opportunity.uuid}/restore`,
      operator.token,
      {
        reason: "Engano: o pagamento era pelo Freela.",
      },
      { type: "opportunity", id: opportunity.uuid },
    );
    expect(restored.status).toBe(200);
    expect((await getOpportunity(browsing.user, opportunity.uuid)).uuid).toBe(opportunity.uuid);
    const again = await post(
      restoreApi,
      `/api/admin/content/opportunity/${opportunity.uuid}/restore`,
      operator.token,
      {
        reason: "De novo, por engano.",
      },
      { type: "opportunity", id: opportunity.uuid },
    );
    expect(again.status).toBe(409);
    expect((await listNotifications(merchant.user, {})).data.map((n) => n.kind)).toContain("moderation_restored");
    expect(await auditCount()).toBe(before + 2);
  });

  it("a message: both sides see it was hidden, its author why; its files and e-mail digest leave it out", async () => {
    const { merchant, freelancer, application } = await conversation();
    // Two new messages the freelancer has not read, one with a file; the e-mail would say "2 mensagens".
    await listMessages(freelancer.user, application.id);
    await sendMessage(merchant.user, application.id, { body: "Segue meu WhatsApp.", confirm_contact: true }, [
      new File([PNG_1X1], "zap.png"),
    ]);
    const bad = (await listMessages(merchant.user, application.id)).data.at(-1)!;
    await sendMessage(merchant.user, application.id, { body: "Aguardo seu retorno." });
    await reportContent(freelancer.user, { target_type: "message", target_id: bad.id, reason: "off_platform" });
    const operator = await signedInOperator();
    await resolve(operator.user, "message", bad.id, { action: "hide", reason: "Contato fora do Freela." });

    expect((await unreadMessages(freelancer.user)).total).toBe(1);
    const sent: Mail[] = [];
    await drainOutbox({ send: async (mail) => void sent.push(mail), at: new Date(Date.now() + 3_600_000), limit: 100 });
    const digest = sent.find((m) => m.to === freelancer.user.email && /mensage/.test(m.subject));
    expect(digest?.subject).toMatch(/enviou uma mensagem/);
    // The subject names the kind; the operator's reason is in the text only.
    const forMerchant = sent.find((m) => m.to === merchant.user.email && /ocultado/.test(m.subject));
    expect(forMerchant?.subject).not.toContain("Contato fora do Freela");
    expect(forMerchant?.text).toContain("Contato fora do Freela.");
    expect(forMerchant?.text).toContain(`/applications/${application.id}/messages`);

    const seenByFreelancer = (await listMessages(freelancer.user, application.id)).data.find((m) => m.id === bad.id)!;
    expect(seenByFreelancer).toMatchObject({ hidden: true, body: "", hidden_reason: null, files: [] });
    const seenByAuthor = (await listMessages(merchant.user, application.id)).data.find((m) => m.id === bad.id)!;
    expect(seenByAuthor).toMatchObject({ hidden: true, body: "", hidden_reason: "Contato fora do Freela." });
    expect(await outcome(getMessageFile(freelancer.user, application.id, bad.files[0]!.id))).toBe(404);
  });

  it("a review (out of the profile and the rating) and a reply", async () => {
    const { merchant, freelancer, application, review } = await reviewedContract();
    const before = await listUserReviews(freelancer.user.id, {});
    expect(before.rating).toEqual({ average: 1, count: 1 });
    await reportContent(freelancer.user, { target_type: "review", target_id: review.id, reason: "offensive" });
    const reader = await signedInUser({ account_type: "merchant" });
    await reportContent(reader.user, { target_type: "reply", target_id: review.id, reason: "offensive" });
    const operator = await signedInOperator();
    await resolve(operator.user, "review", review.id, { action: "hide", reason: "Linguagem ofensiva." });
    const after = await listUserReviews(freelancer.user.id, {});
    expect(after.data).toHaveLength(0);
    expect(after.rating).toEqual({ average: null, count: 0 });
    const onContract = await getContractReviews(merchant.user, application.id);
    expect(onContract.mine).toMatchObject({ hidden: true, comment: "", hidden_reason: "Linguagem ofensiva." });
    const theirView = await getContractReviews(freelancer.user, application.id);
    expect(theirView.theirs).toMatchObject({ hidden: true, comment: "", hidden_reason: null });

    await restoreContent(operator.user, "review", review.id, { reason: "Revisto: crítica dura, não ofensa." });
    expect((await listUserReviews(freelancer.user.id, {})).rating).toEqual({ average: 1, count: 1 });
    await resolve(operator.user, "reply", review.id, { action: "hide", reason: "Acusação sem base." });
    const shown = (await listUserReviews(freelancer.user.id, {})).data[0]!;
    expect(shown).toMatchObject({
      comment: "Um lixo de trabalho.",
      reply: null,
      reply_hidden: true,
      reply_hidden_reason: null,
    });
    const replyAuthorView = await getContractReviews(freelancer.user, application.id);
    expect(replyAuthorView.theirs).toMatchObject({
      reply: null,
      reply_hidden: true,
      reply_hidden_reason: "Acusação sem base.",
    });
  });

  it("a profile: out of the directory and its page, its photo set aside, its owner still sees it", async () => {
    const freelancer = await signedInUser({
      account_type: "freelancer",
      full_name: "Perfil Problemático",
      photo_path: "p_x.png",
    });
    const reader = await signedInUser({ account_type: "merchant" });
    await reportContent(reader.user, {
      target_type: "profile",
      target_id: freelancer.user.id,
      reason: "inappropriate",
    });
    const operator = await signedInOperator();
    await resolve(operator.user, "profile", freelancer.user.id, { action: "hide", reason: "Foto imprópria." });
    expect((await listFreelancers({ q: "Problemático", per_page: 100 })).data).toHaveLength(0);
    expect(await outcome(getFreelancerProfile(freelancer.user.id, reader.user.id))).toBe(404);
    const own = await getFreelancerProfile(freelancer.user.id, freelancer.user.id);
    expect(own).toMatchObject({ hidden: true, photo_url: null });
    await restoreContent(operator.user, "profile", freelancer.user.id, { reason: "Foto trocada pela pessoa." });
    expect((await getFreelancerProfile(freelancer.user.id, reader.user.id)).photo_url).toBe("/uploads/p_x.png");
  });
});

describe("sanctions", () => {
  it("suspension ends sessions and API tokens at once, refuses sign-in saying until when, closes and withdraws", async () => {
    const merchant = await signedInUser({ account_type: "merchant", email: "suspensa@example.com" });
    const applicant = await signedInUser({ account_type: "freelancer" });
    const open = await createOpportunity(db, { merchant_id: merchant.user.id, vacancies: 2 });
    const pendingApplication = await createApplication(db, { opportunity: open, freelancer_id: applicant.user.id });
    const hired = await createApplication(db, { opportunity: open, status: "accepted" });
    // As a freelancer elsewhere? Merchants only publish; a suspended freelancer's applications are below.
    const operator = await signedInOperator();
    const before = await auditCount();
    const res = await post(
      sanctionsApi,
      `/api/admin/users/${merchant.user.id}/sanctions`,
      operator.token,
      { action: "suspend", days: 7, reason: "Golpe com Pix." },
      { id: merchant.user.id },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.effects).toEqual({
      sessions_ended: 1,
      opportunities_closed: 1,
      applications_withdrawn: 0,
      contracts_flagged: 1,
    });
    expect(await auditCount()).toBe(before + 1);
    expect(await findSessionUser(merchant.token)).toBeNull();
    const api = await call(
      opportunitiesApi.loader,
      jsonRequest("/api/opportunities", undefined, { token: merchant.token }),
    );
    expect(api.status).toBe(401);
    const signIn = await call(
      loginApi.action,
      jsonRequest("/api/login", { email: "suspensa@example.com", password: merchant.user.password }),
    );
    expect(signIn.status).toBe(403);
    expect(signIn.body.message).toMatch(/^Sua conta está suspensa até \d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}\./);
    // A wrong password says nothing about the suspension.
    const wrong = await call(
      loginApi.action,
      jsonRequest("/api/login", { email: "suspensa@example.com", password: "errada123" }),
    );
    expect(wrong.status).toBe(401);

    const closed = await db.selectFrom("opportunities").selectAll().where("id", "=", open.id).executeTakeFirstOrThrow();
    expect(closed).toMatchObject({ status: "closed", closed_reason: "suspended" });
    const app = await db
      .selectFrom("applications")
      .selectAll()
      .where("id", "=", pendingApplication.id)
      .executeTakeFirstOrThrow();
    expect(app).toMatchObject({ status: "rejected", rejection_reason: "closed" });
    expect((await listNotifications(applicant.user, {})).data.map((n) => n.kind)).toEqual(["application_rejected"]);
    const contract = await db.selectFrom("contracts").selectAll().where("id", "=", hired.id).executeTakeFirstOrThrow();
    expect(contract).toMatchObject({ status: "in_progress", flag_reason: "suspended" });
    expect(contract.flagged_at).not.toBeNull();

    // Twice: 409. Lifting gives back sign-in only.
    expect(
      await outcome(sanctionUser(operator.user, merchant.user.id, { action: "suspend", days: 3, reason: "De novo." })),
    ).toBe(409);
    await sanctionUser(operator.user, merchant.user.id, { action: "lift", reason: "Pagamento devolvido." });
    expect((await login({ email: "suspensa@example.com", password: merchant.user.password })).user.id).toBe(
      merchant.user.id,
    );
    expect(
      (await db.selectFrom("opportunities").select("status").where("id", "=", open.id).executeTakeFirstOrThrow())
        .status,
    ).toBe("closed");
    expect(await outcome(sanctionUser(operator.user, merchant.user.id, { action: "lift", reason: "De novo." }))).toBe(
      409,
    );
    expect((await auditRows()).slice(before).map((r) => r.action)).toEqual(["user.suspend", "user.lift"]);
  });

  it("a suspended freelancer's applications under negotiation are withdrawn, the merchants told", async () => {
    const { merchant, freelancer, application } = await conversation();
    const operator = await signedInOperator();
    const outcomeOf = await sanctionUser(operator.user, freelancer.user.id, {
      action: "ban",
      reason: "Contas falsas.",
    });
    expect(outcomeOf.effects?.applications_withdrawn).toBe(1);
    const row = await db
      .selectFrom("applications")
      .select("status")
      .where("id", "=", application.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("withdrawn");
    expect((await listNotifications(merchant.user, {})).data.map((n) => n.kind)).toContain("application_withdrawn");
    const signIn = await call(
      loginApi.action,
      jsonRequest("/api/login", { email: freelancer.user.email, password: freelancer.user.password }),
    );
    expect(signIn.status).toBe(403);
    expect(signIn.body.message).toBe("Sua conta foi banida e não pode mais entrar no Freela.");
    const notices = await listNotifications({ ...freelancer.user }, {});
    expect(notices.data[0]).toMatchObject({
      kind: "account_banned",
      detail: { reason: "Contas falsas.", until: null },
    });
  });

  it("warn, from a report: the author is told and the reports close; operators are not sanctioned", async () => {
    const { merchant, freelancer, fromMerchant } = await conversation();
    await reportContent(freelancer.user, {
      target_type: "message",
      target_id: fromMerchant.id,
      reason: "off_platform",
    });
    const operator = await signedInOperator();
    const before = await auditCount();
    const result = await resolve(operator.user, "message", fromMerchant.id, {
      action: "warn",
      reason: "Não peça pagamento por fora.",
      hide: "1",
    });
    expect(result).toEqual({ resolved: 1, action: "warn", hidden: true });
    expect(
      (await auditRows())
        .slice(before)
        .map((r) => r.action)
        .sort(),
    ).toEqual(["content.hide", "user.warn"]);
    expect((await listNotifications(merchant.user, {})).data.map((n) => n.kind).sort()).toEqual([
      "moderation_hidden",
      "moderation_warning",
    ]);
    // The e-mail: the reason in the text with one full stop, not as the subject.
    const sent: Mail[] = [];
    await drainOutbox({ send: async (mail) => void sent.push(mail), at: new Date(Date.now() + 3_600_000), limit: 100 });
    const warning = sent.find((m) => m.to === merchant.user.email && m.text.includes("Advertência"))!;
    expect(warning.text).toContain("Não peça pagamento por fora.");
    expect(warning.text).not.toContain("..");
    expect(warning.subject).not.toContain("Não peça pagamento");
    const other = await signedInOperator();
    expect(
      await outcome(sanctionUser(operator.user, other.user.id, { action: "ban", reason: "Teste de operador." })),
    ).toBe(404);
    const bad = await post(
      sanctionsApi,
      `/api/admin/users/${merchant.user.id}/sanctions`,
      operator.token,
      { action: "suspend", reason: "x" },
      { id: merchant.user.id },
    );
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["days", "reason"]);
  });
});

describe("two operators at once", () => {
  it("on one target: one resolves it, the other gets 409, and the log has one row", async () => {
    for (let round = 0; round < 5; round++) {
      const { opportunity } = await conversation();
      const reporter = await signedInUser({ account_type: "freelancer" });
      await reportContent(reporter.user, { target_type: "opportunity", target_id: opportunity.uuid, reason: "spam" });
      const [a, b] = await Promise.all([signedInOperator("Ana"), signedInOperator("Bia")]);
      const before = await auditCount();
      const results = await Promise.all([
        post(
          resolveApi,
          "/x",
          a.token,
          { action: "hide", reason: "Spam repetido." },
          { type: "opportunity", id: opportunity.uuid },
        ),
        post(resolveApi, "/x", b.token, { action: "dismiss" }, { type: "opportunity", id: opportunity.uuid }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.body.message).toBe(
        "Estas denúncias já foram resolvidas por outro operador.",
      );
      expect(await auditCount()).toBe(before + 1);
    }
  });

  it("on one user: one suspension wins", async () => {
    const target = await signedInUser({ account_type: "freelancer" });
    const [a, b] = await Promise.all([signedInOperator("Ana"), signedInOperator("Bia")]);
    const results = await Promise.all(
      [a, b].map((o) =>
        post(
          sanctionsApi,
          "/x",
          o.token,
          { action: "suspend", days: 2, reason: "Spam em mensagens." },
          { id: target.user.id },
        ),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe("pre-moderation", () => {
  it("holds the opportunities of young accounts until an operator approves or refuses them", async () => {
    const operator = await signedInOperator();
    const saved = await post(settingsApi, "/api/admin/settings", operator.token, { premoderation_days: 3 });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toEqual({ premoderation_days: 3, public_pages: 1 });
    expect((await auditRows()).at(-1)).toMatchObject({ action: "setting.update", target_id: "premoderation_days" });
    const young = await signedInUser({ account_type: "merchant" });
    const old = await signedInUser({
      account_type: "merchant",
      created_at: new Date(Date.now() - 10 * 86_400_000).toISOString(),
    });
    const freelancer = await signedInUser({ account_type: "freelancer" });
    const body = {
      title: "Cardápio digital para lanchonete",
      description: "Cardápio com fotos, preços e pedidos pelo WhatsApp, fácil de atualizar.",
      category: "desenvolvimento",
      budget_type: "fixed",
      budget_min_cents: 50_000,
      budget_max_cents: 90_000,
      location_type: "remote",
    };
    const held = await call(opportunitiesApi.action, jsonRequest("/api/opportunities", body, { token: young.token }));
    const published = await call(
      opportunitiesApi.action,
      jsonRequest("/api/opportunities", body, { token: old.token }),
    );
    expect(held.body.data.moderation).toEqual({ hidden: false, hidden_reason: null, held: true });
    expect(published.body.data.moderation.held).toBe(false);
    expect(await outcome(getOpportunity(freelancer.user, held.body.data.uuid))).toBe(404);
    const queue = await get(heldApi, "/api/admin/premoderation", operator.token);
    expect(queue.body.data.map((o: any) => o.uuid)).toEqual([held.body.data.uuid]);

    const decide = (uuid: string, input: unknown) => post(decideApi, "/x", operator.token, input, { uuid });
    expect((await decide(held.body.data.uuid, { decision: "reject" })).status).toBe(422);
    expect((await decide(held.body.data.uuid, { decision: "approve" })).status).toBe(200);
    expect((await decide(held.body.data.uuid, { decision: "approve" })).status).toBe(409);
    expect((await getOpportunity(freelancer.user, held.body.data.uuid)).uuid).toBe(held.body.data.uuid);
    expect((await listNotifications(young.user, {})).data.map((n) => n.kind)).toEqual(["opportunity_published"]);

    const second = await call(opportunitiesApi.action, jsonRequest("/api/opportunities", body, { token: young.token }));
    await decideHeldOpportunity(operator.user, second.body.data.uuid, {
      decision: "reject",
      reason: "Anúncio duplicado.",
    });
    expect((await getOpportunity(young.user, second.body.data.uuid)).moderation).toEqual({
      hidden: true,
      hidden_reason: "Anúncio duplicado.",
      held: false,
    });
    expect((await listHeldOpportunities({})).data).toHaveLength(0);
    await updateSettings(operator.user, { premoderation_days: 0 });
    const after = await call(opportunitiesApi.action, jsonRequest("/api/opportunities", body, { token: young.token }));
    expect(after.body.data.moderation.held).toBe(false);
    expect(
      (await post(settingsApi, "/api/admin/settings", operator.token, { premoderation_days: -1, other: 1 })).status,
    ).toBe(422);
  });
});

describe("the console's people", () => {
  it("lists and finds them by name or e-mail and standing; one person's page", async () => {
    const operator = await signedInOperator();
    const person = await signedInUser({
      account_type: "freelancer",
      full_name: "Zuleica Buscável",
      email: "zuleica_100%@example.com",
    });
    expect((await listMembers({ q: "zuleica" })).data.map((u) => u.id)).toEqual([person.user.id]);
    expect((await listMembers({ q: "100%" })).data.map((u) => u.id)).toEqual([person.user.id]);
    expect((await listMembers({ q: "buscavel" })).data.map((u) => u.id)).toEqual([person.user.id]);
    await sanctionUser(operator.user, person.user.id, { action: "suspend", days: 1, reason: "Teste de busca." });
    expect((await listMembers({ status: "suspended", q: "zuleica" })).data).toHaveLength(1);
    expect((await listMembers({ status: "active", q: "zuleica" })).data).toHaveLength(0);
    const page = await get(userApi, `/api/admin/users/${person.user.id}`, operator.token, { id: person.user.id });
    expect(page.body.data).toMatchObject({ status: "suspended", sanction_reason: "Teste de busca." });
    expect(page.body.data.audit.map((a: any) => a.action)).toEqual(["user.suspend"]);
    expect((await get(usersApi, "/api/admin/users?role=admin", operator.token)).status).toBe(422);
    expect(await outcome(getMember("nope"))).toBe(404);
  });

  it("every console endpoint answers 404 to merchants and freelancers, 401 to visitors", async () => {
    const merchant = await signedInUser({ account_type: "merchant" });
    const freelancer = await signedInUser({ account_type: "freelancer" });
    const id = crypto.randomUUID();
    const reads: [any, string, Record<string, string>][] = [
      [queueApi, "/api/admin/reports", {}],
      [caseApi, `/api/admin/reports/message/${id}`, { type: "message", id }],
      [usersApi, "/api/admin/users", {}],
      [userApi, `/api/admin/users/${id}`, { id }],
      [heldApi, "/api/admin/premoderation", {}],
      [settingsApi, "/api/admin/settings", {}],
    ];
    const writes: [any, string, Record<string, string>][] = [
      [resolveApi, `/api/admin/reports/message/${id}/resolve`, { type: "message", id }],
      [restoreApi, `/api/admin/content/message/${id}/restore`, { type: "message", id }],
      [sanctionsApi, `/api/admin/users/${id}/sanctions`, { id }],
      [decideApi, `/api/admin/premoderation/${id}`, { uuid: id }],
      [settingsApi, "/api/admin/settings", {}],
    ];
    for (const who of [merchant, freelancer]) {
      for (const [route, path, params] of reads) expect((await get(route, path, who.token, params)).status).toBe(404);
      for (const [route, path, params] of writes) {
        expect((await post(route, path, who.token, { action: "ban", reason: "tentativa" }, params)).status).toBe(404);
      }
    }
    for (const [route, path, params] of reads) expect((await get(route, path, undefined, params)).status).toBe(401);
    for (const [route, path, params] of writes)
      expect((await post(route, path, undefined, {}, params)).status).toBe(401);
  });
});
