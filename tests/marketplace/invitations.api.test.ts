import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
import { action as declineAction } from "~/routes/api+/invitations+/$id.decline";
import { loader as listLoader } from "~/routes/api+/invitations+/_index";
import { loader as notificationsLoader } from "~/routes/api+/_account+/notifications._index";
import { action as inviteAction } from "~/routes/api+/opportunities+/$uuid.invitations";
import * as profilePage from "~/routes/_profiles+/freelancers.$id";
import { postForm } from "../operator/support";
import { call, jsonRequest, signedInUser } from "../support/helpers";

async function setup() {
  const merchant = await signedInUser({ account_type: "merchant", full_name: "Padaria Pão Quente" });
  const freelancer = await signedInUser({ account_type: "freelancer" });
  const opportunity = await createOpportunity(db, { merchant_id: merchant.user.id, title: "Site da padaria" });
  return { merchant, freelancer, opportunity };
}

const invite = (uuid: string, token: string, body: unknown) =>
  call(inviteAction, jsonRequest(`/api/opportunities/${uuid}/invitations`, body, { token }), { uuid });
const decline = (id: string, token: string) =>
  call(declineAction, jsonRequest(`/api/invitations/${id}/decline`, undefined, { method: "POST", token }), { id });
const listOf = (token: string) => call(listLoader, jsonRequest("/api/invitations", undefined, { token }));

describe("invitations", () => {
  it("the profile's invite form without JavaScript: no opportunity is a field error with the message kept; then sent", async () => {
    const { merchant, freelancer, opportunity } = await setup();
    const path = `/freelancers/${freelancer.user.id}`;
    const params = { id: freelancer.user.id };
    const message = "Vi seu perfil: topa fazer a capa?";
    const refused = await postForm(profilePage, path, merchant.token, { opportunity: "", message }, params);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.opportunity).toBeTruthy();
    expect(refused.body.values).toMatchObject({ message });
    const sent = await postForm(profilePage, path, merchant.token, { opportunity: opportunity.uuid, message }, params);
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(path);
    const listed = await listOf(freelancer.token);
    expect(listed.body.data).toMatchObject([{ status: "pending", message, opportunity: { uuid: opportunity.uuid } }]);
  });

  it("a merchant invites; the freelancer is notified, sees it and may decline once", async () => {
    const { merchant, freelancer, opportunity } = await setup();
    const res = await invite(opportunity.uuid, merchant.token, {
      freelancer_id: freelancer.user.id,
      message: "Gostei do seu portfólio!",
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      status: "pending",
      message: "Gostei do seu portfólio!",
      opportunity: { uuid: opportunity.uuid, title: "Site da padaria" },
      merchant: { id: merchant.user.id },
    });
    const notes = await call(
      notificationsLoader,
      jsonRequest("/api/notifications", undefined, { token: freelancer.token }),
    );
    expect(notes.body.data[0]).toMatchObject({
      kind: "invitation_received",
      opportunity_uuid: opportunity.uuid,
      actor: { id: merchant.user.id, display_name: "Padaria Pão Quente" },
    });

    const listed = await listOf(freelancer.token);
    expect(listed.body.data.map((i: { id: string }) => i.id)).toEqual([res.body.data.id]);
    expect((await listOf(merchant.token)).body.data).toHaveLength(1);

    const declined = await decline(res.body.data.id, freelancer.token);
    expect(declined.status).toBe(200);
    expect(declined.body.data.status).toBe("declined");
    expect((await decline(res.body.data.id, freelancer.token)).status).toBe(409);
  });

  it("one invitation per freelancer and opportunity; none after applying", async () => {
    const { merchant, freelancer, opportunity } = await setup();
    const body = { freelancer_id: freelancer.user.id, message: "Olá!" };
    const both = await Promise.all([
      invite(opportunity.uuid, merchant.token, body),
      invite(opportunity.uuid, merchant.token, body),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(both.find((r) => r.status === 409)!.body.message).toBe(
      "Este freelancer já foi convidado para esta oportunidade.",
    );

    const other = await signedInUser({ account_type: "freelancer" });
    await createApplication(db, { opportunity, freelancer_id: other.user.id });
    const applied = await invite(opportunity.uuid, merchant.token, { freelancer_id: other.user.id, message: "Olá!" });
    expect(applied.status).toBe(409);
    expect(applied.body.message).toBe("Este freelancer já se candidatou a esta oportunidade.");
  });

  it("applying after the invitation shows it as applied; closing voids a pending one", async () => {
    const { merchant, freelancer, opportunity } = await setup();
    const second = await signedInUser({ account_type: "freelancer" });
    const a = await invite(opportunity.uuid, merchant.token, { freelancer_id: freelancer.user.id, message: "Vem!" });
    const b = await invite(opportunity.uuid, merchant.token, { freelancer_id: second.user.id, message: "Vem!" });
    await createApplication(db, { opportunity, freelancer_id: freelancer.user.id });
    await db.updateTable("opportunities").set({ status: "closed" }).where("id", "=", opportunity.id).execute();
    expect((await listOf(freelancer.token)).body.data[0].status).toBe("applied");
    expect((await listOf(second.token)).body.data[0].status).toBe("void");
    expect((await decline(b.body.data.id, second.token)).status).toBe(409);
    expect(a.status).toBe(201);
    const late = await invite(opportunity.uuid, merchant.token, {
      freelancer_id: (await signedInUser()).user.id,
      message: "Oi",
    });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe("Só é possível convidar para oportunidades abertas.");
  });

  it("refuses the wrong role, someone else's opportunity or invitation, bad input", async () => {
    const { merchant, freelancer, opportunity } = await setup();
    const stranger = await signedInUser({ account_type: "merchant" });
    const body = { freelancer_id: freelancer.user.id, message: "Olá" };
    expect((await invite(opportunity.uuid, freelancer.token, body)).status).toBe(403);
    expect((await invite(opportunity.uuid, stranger.token, body)).status).toBe(404);
    const bad = await invite(opportunity.uuid, merchant.token, {
      freelancer_id: merchant.user.id,
      message: "x".repeat(501),
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ message: "A mensagem do convite deve ter entre 1 e 500 caracteres." });
    const notFreelancer = await invite(opportunity.uuid, merchant.token, {
      freelancer_id: stranger.user.id,
      message: "Oi",
    });
    expect(notFreelancer.status).toBe(422);
    expect(notFreelancer.body.errors.freelancer_id).toBe("Escolha um freelancer para convidar.");

    const sent = await invite(opportunity.uuid, merchant.token, body);
    const other = await signedInUser({ account_type: "freelancer" });
    expect((await decline(sent.body.data.id, other.token)).status).toBe(404);
    expect((await decline(sent.body.data.id, merchant.token)).status).toBe(403);
    expect((await decline("nope", freelancer.token)).status).toBe(404);
  });

  it("a merchant sends at most 30 invitations an hour", async () => {
    const merchant = await signedInUser({ account_type: "merchant" });
    const opportunity = await createOpportunity(db, { merchant_id: merchant.user.id });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const f = await signedInUser({ account_type: "freelancer" });
      statuses.push(
        (await invite(opportunity.uuid, merchant.token, { freelancer_id: f.user.id, message: "Oi" })).status,
      );
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(30);
    expect(statuses[30]).toBe(429);
  });
});
