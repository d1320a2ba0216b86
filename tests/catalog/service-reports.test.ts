import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createService, getService, publishService } from "~/services/catalog/services.server";
import { listNotifications } from "~/services/messaging/notifications.server";
import { drainOutbox } from "~/services/platform/outbox.server";
import type { Mail } from "~/services/platform/mail.server";
import * as reportsApi from "~/routes/api+/reports+/_index";
import * as queueApi from "~/routes/api+/admin+/reports._index";
import * as caseApi from "~/routes/api+/admin+/reports.$type.$id";
import * as resolveApi from "~/routes/api+/admin+/reports.$type.$id.resolve";
import * as restoreApi from "~/routes/api+/admin+/content.$type.$id.restore";
import * as moderationApi from "~/routes/api+/admin+/services.$id.moderation";
import * as reportPage from "~/routes/_account+/report";
import * as servicePage from "~/routes/_public+/servicos.$slug";
import { validService } from "../support/fixtures";
import { signedInUser } from "../support/helpers";
import { outcome } from "../support/market";
import { auditRows, get, post, postForm, signedInOperator } from "../operator/support";

// Reporting a ready-made service (docs/product.md, "Serviços prontos"): the report form and
// POST /api/reports take it, the operator's queue shows it, hides it and shows it again, and its
// owner is told why, in the app and by e-mail (the console's own moderation of a service too).

const OLD = "2026-01-01T00:00:00.000Z";

async function liveService() {
  const owner = await signedInUser({ account_type: "freelancer", created_at: OLD, full_name: "Fábio Freela" });
  const draft = await createService(owner.user, validService);
  const service = await publishService(owner.user, draft.id);
  return { owner, service };
}

const report = (token: string, id: string, reason = "fraud") =>
  post(reportsApi, "/api/reports", token, { target_type: "service", target_id: id, reason });

describe("reports of a service", () => {
  it("are sent from the form and the API, once while open; not of one's own, of a draft or of nothing", async () => {
    const { owner, service } = await liveService();
    const buyer = await signedInUser({ account_type: "merchant" });
    const other = await signedInUser({ account_type: "freelancer" });

    // The service's page offers "Denunciar" to someone signed in, not to its owner nor to visitors.
    const params = { slug: `${service.slug}-${service.id}` };
    const path = `/servicos/${service.slug}-${service.id}`;
    expect((await get(servicePage, path, buyer.token, params)).body.reportable).toBe(true);
    expect((await get(servicePage, path, owner.token, params)).body.reportable).toBe(false);
    expect((await get(servicePage, path, undefined, params)).body.reportable).toBe(false);

    const form = `/report?type=service&id=${service.id}&back=${path}`;
    expect((await get(reportPage, form, buyer.token)).body).toMatchObject({
      type: "service",
      subject: "Logotipo para sua confeitaria",
    });
    const sent = await postForm(reportPage, form, buyer.token, { reason: "fraud", details: "Cobra por fora." });
    expect(sent.status).toBe(302);
    const again = await report(buyer.token, service.id);
    expect(again.status).toBe(409);
    expect((await report(other.token, service.id, "spam")).status).toBe(201);

    const own = await report(owner.token, service.id);
    expect(own.status).toBe(422);
    const draft = await createService(owner.user, validService);
    expect((await report(buyer.token, draft.id)).status).toBe(404);
    expect((await report(buyer.token, "00000000-0000-4000-8000-000000000000")).status).toBe(404);
    const typo = await post(reportsApi, "/api/reports", buyer.token, {
      target_type: "servico",
      target_id: service.id,
      reason: "fraud",
    });
    expect(typo.status).toBe(422);
  });

  it("the queue shows the service; hiding it tells its owner why (app and e-mail), showing it again too", async () => {
    const { owner, service } = await liveService();
    const buyer = await signedInUser({ account_type: "merchant" });
    const operator = await signedInOperator();
    expect((await report(buyer.token, service.id)).status).toBe(201);

    const queue = await get(queueApi, "/api/admin/reports?type=service", operator.token);
    expect(queue.status).toBe(200);
    const group = queue.body.data.find((g: { target: { id: string } }) => g.target.id === service.id);
    expect(group).toMatchObject({
      target: { type: "service", id: service.id },
      author: { id: owner.user.id },
      reports_count: 1,
      reasons: { fraud: 1 },
      content: { title: "Logotipo para sua confeitaria", hidden: false, exists: true },
    });
    const params = { type: "service", id: service.id };
    const one = await get(caseApi, `/api/admin/reports/service/${service.id}`, operator.token, params);
    expect(one.body.data.content.text).toContain(validService.description);

    const reason = "Oferece pagamento fora da plataforma.";
    const resolved = await post(
      resolveApi,
      `/api/admin/reports/service/${service.id}/resolve`,
      operator.token,
      { action: "hide", reason },
      params,
    );
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ resolved: 1, hidden: true });
    expect(await outcome(getService(buyer.user, service.id))).toBe(404);
    expect((await getService(owner.user, service.id)).moderation).toEqual({ hidden: true, hidden_reason: reason });

    const notice = (await listNotifications(owner.user, {})).data.find((n) => n.kind === "moderation_hidden");
    expect(notice?.detail).toEqual({
      what: "service",
      reason,
      service_id: service.id,
      service_title: "Logotipo para sua confeitaria",
    });
    const sent: Mail[] = [];
    await drainOutbox({ send: async (mail) => void sent.push(mail), at: new Date(Date.now() + 3_600_000), limit: 100 });
    const mail = sent.find((m) => m.to === owner.user.email && /ocultado/.test(m.subject));
    expect(mail?.text).toContain("seu serviço “Logotipo para sua confeitaria”");
    expect(mail?.text).toContain(reason);
    expect(mail?.text).toContain(`/meus-servicos/${service.id}`);

    const restored = await post(
      restoreApi,
      `/api/admin/content/service/${service.id}/restore`,
      operator.token,
      { reason: "Engano: o pagamento era pelo Freela." },
      params,
    );
    expect(restored.status).toBe(200);
    expect((await getService(buyer.user, service.id)).id).toBe(service.id);
    const kinds = (await listNotifications(owner.user, {})).data.map((n) => n.kind);
    expect(kinds).toContain("moderation_restored");
    const audit = (await auditRows()).filter((r) => r.target_id === service.id).map((r) => r.action);
    expect(audit).toEqual(["content.hide", "content.restore"]);
  });

  it("the console's moderation of a service tells its owner too", async () => {
    const { owner, service } = await liveService();
    const operator = await signedInOperator();
    const moderate = (body: unknown) =>
      post(moderationApi, `/api/admin/services/${service.id}/moderation`, operator.token, body, { id: service.id });
    expect((await moderate({ action: "hide", reason: "Imagens de outra pessoa." })).status).toBe(200);
    expect((await moderate({ action: "hide", reason: "De novo, por engano." })).status).toBe(409);
    expect((await moderate({ action: "restore", reason: "As imagens eram dele." })).status).toBe(200);
    const notices = (await listNotifications(owner.user, {})).data;
    expect(notices.map((n) => [n.kind, n.detail?.reason])).toEqual([
      ["moderation_restored", "As imagens eram dele."],
      ["moderation_hidden", "Imagens de outra pessoa."],
    ]);
    const hiddenRow = await db
      .selectFrom("services")
      .select("hidden_at")
      .where("id", "=", service.id)
      .executeTakeFirst();
    expect(hiddenRow?.hidden_at).toBeNull();
  });
});
