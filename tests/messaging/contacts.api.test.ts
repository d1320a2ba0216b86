import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
import * as messagesRoute from "~/routes/api+/applications+/$id.messages";
import * as offersRoute from "~/routes/api+/applications+/$id.offers";
import * as applicationsRoute from "~/routes/api+/opportunities+/$uuid.applications";
import * as invitationsRoute from "~/routes/api+/opportunities+/$uuid.invitations";
import * as messagesPage from "~/routes/applications+/$id_.messages";
import * as freelancerPage from "~/routes/_profiles+/freelancers.$id";
import * as opportunityPage from "~/routes/opportunities+/$uuid";
import * as applicationPage from "~/routes/applications+/$id";
import * as negotiatePage from "~/routes/applications+/$id_.negotiate";
import { CONTACT_MASK } from "~/services/messaging/contact-detector.server";
import { postForm } from "../operator/support";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { validApplication } from "../support/market";

const PHONE = "Me chama no zap (11) 98765-4321";
const NOTICE = /pagamento garantido só protege o dinheiro pago pelo Freela/;

async function conversation() {
  const m = await signedInUser({ account_type: "merchant" });
  const f = await signedInUser({ account_type: "freelancer" });
  const opp = await createOpportunity(db, { merchant_id: m.user.id });
  const app = await createApplication(db, { opportunity: opp, freelancer_id: f.user.id });
  return { m, f, opp, app };
}

describe("contacts before funding, by the API", () => {
  it("a message: 422 contact_detected with the notice, then 201 with confirm_contact, masked for the other side", async () => {
    const { m, f, app } = await conversation();
    const path = `/api/applications/${app.id}/messages`;
    const refused = await call(messagesRoute.action, jsonRequest(path, { body: PHONE }, { token: f.token }), {
      id: app.id,
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: "contact_detected", errors: { body: expect.stringMatching(NOTICE) } });
    expect(refused.body.kinds).toEqual(["app"]);
    // Only a true confirms (JSON): anything else is the notice again.
    for (const confirm_contact of [false, "no", 0]) {
      const again = await call(
        messagesRoute.action,
        jsonRequest(path, { body: PHONE, confirm_contact }, { token: f.token }),
        {
          id: app.id,
        },
      );
      expect(again.status).toBe(422);
    }
    const sent = await call(
      messagesRoute.action,
      jsonRequest(path, { body: PHONE, confirm_contact: true }, { token: f.token }),
      { id: app.id },
    );
    expect(sent.status).toBe(201);
    expect(sent.body.data.body).toBe(PHONE);
    const read = await call(messagesRoute.loader, jsonRequest(path, undefined, { token: m.token }), { id: app.id });
    expect(read.body.data.map((x: { body: string }) => x.body)).toEqual([CONTACT_MASK]);
    const own = await call(messagesRoute.loader, jsonRequest(path, undefined, { token: f.token }), { id: app.id });
    expect(own.body.data[0].body).toBe(PHONE);
  });

  it("an application, a counter-offer and an invitation answer the same way", async () => {
    const { m, f, opp, app } = await conversation();
    const other = await signedInUser({ account_type: "freelancer" });
    const letter = {
      ...validApplication,
      cover_letter: "Tenho experiência. Escreve pra mim: ana arroba gmail ponto com",
    };
    const applyPath = `/api/opportunities/${opp.uuid}/applications`;
    const apply = (body: object) =>
      call(applicationsRoute.action, jsonRequest(applyPath, body, { token: other.token }), { uuid: opp.uuid });
    expect((await apply(letter)).body).toMatchObject({ code: "contact_detected" });
    expect((await apply({ ...letter, confirm_contact: true })).status).toBe(201);

    const offerPath = `/api/applications/${app.id}/offers`;
    const offer = { price_cents: 180_000, delivery_days: 12, message: "Se fechar por fora faço mais barato" };
    const counter = (body: object) =>
      call(offersRoute.action, jsonRequest(offerPath, body, { token: m.token }), { id: app.id });
    expect(await counter(offer)).toMatchObject({ status: 422, body: { code: "contact_detected" } });
    expect((await counter({ ...offer, confirm_contact: true })).status).toBe(201);

    const invitePath = `/api/opportunities/${opp.uuid}/invitations`;
    const invited = await signedInUser({ account_type: "freelancer" });
    const invite = { freelancer_id: invited.user.id, message: "Vi seu perfil, me chama no whats" };
    const inviteCall = (body: object) =>
      call(invitationsRoute.action, jsonRequest(invitePath, body, { token: m.token }), { uuid: opp.uuid });
    expect(await inviteCall(invite)).toMatchObject({ status: 422, body: { code: "contact_detected" } });
    expect((await inviteCall({ ...invite, confirm_contact: true })).status).toBe(201);
    void f;
  });
});

describe("contacts before funding, by the page forms without JavaScript", () => {
  it("the message form answers with the notice and the text kept; posting again with confirm_contact sends it", async () => {
    const { m, f, app } = await conversation();
    const path = `/applications/${app.id}/messages`;
    const refused = await postForm(messagesPage, path, f.token, { body: PHONE }, { id: app.id });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: "contact_detected",
      errors: { body: expect.stringMatching(NOTICE) },
      values: { body: PHONE },
    });
    const sent = await postForm(messagesPage, path, f.token, { body: PHONE, confirm_contact: "1" }, { id: app.id });
    expect(sent.status).toBe(302);
    const page = await call(messagesPage.loader, jsonRequest(path, undefined, { token: m.token }), { id: app.id });
    expect(page.body.conversation.data[0].body).toBe(CONTACT_MASK);
  });

  it("the invitation form on a freelancer's profile does the same", async () => {
    const m = await signedInUser({ account_type: "merchant" });
    const invited = await signedInUser({ account_type: "freelancer" });
    const opp = await createOpportunity(db, { merchant_id: m.user.id });
    const path = `/freelancers/${invited.user.id}`;
    const fields = { opportunity: opp.uuid, message: "Gostei! Meu e-mail é loja@padaria.com.br" };
    const refused = await postForm(freelancerPage, path, m.token, fields, { id: invited.user.id });
    expect(refused).toMatchObject({ status: 422, body: { code: "contact_detected", values: fields } });
    const sent = await postForm(
      freelancerPage,
      path,
      m.token,
      { ...fields, confirm_contact: "1" },
      { id: invited.user.id },
    );
    expect(sent.status).toBe(302);
  });

  it("the proposal form on the opportunity's page: the notice with everything typed kept, then sent masked for the merchant", async () => {
    const { m, opp } = await conversation();
    const f = await signedInUser({ account_type: "freelancer" });
    const path = `/opportunities/${opp.uuid}`;
    const letter = "Tenho experiência com lojas virtuais. Meu WhatsApp: (11) 98765-4321, me chama lá.";
    const fields = { intent: "apply", cover_letter: letter, price: "1.500,00", delivery_days: "10" };
    const refused = await postForm(opportunityPage, path, f.token, fields, { uuid: opp.uuid });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: "contact_detected",
      errors: { cover_letter: expect.stringMatching(NOTICE) },
      values: fields,
    });
    const sent = await postForm(
      opportunityPage,
      path,
      f.token,
      { ...fields, confirm_contact: "1" },
      { uuid: opp.uuid },
    );
    expect(sent.status).toBe(302);
    const id = sent.headers.get("Location")!.split("/").pop()!;
    const asMerchant = await call(
      applicationPage.loader,
      jsonRequest(`/applications/${id}`, undefined, { token: m.token }),
      { id },
    );
    expect(asMerchant.body.application.cover_letter).toContain(CONTACT_MASK);
    expect(asMerchant.body.application.cover_letter).not.toContain("98765");
    const asAuthor = await call(
      applicationPage.loader,
      jsonRequest(`/applications/${id}`, undefined, { token: f.token }),
      { id },
    );
    expect(asAuthor.body.application.cover_letter).toBe(letter);
  });

  it("the counter-offer form: the notice with the terms and the note kept, then sent masked for the freelancer", async () => {
    const { m, f, app } = await conversation();
    const path = `/applications/${app.id}/negotiate`;
    const note = "Fecho por R$ 1.800,00 se você me mandar um e-mail: marina@padaria.com.br";
    const fields = { intent: "counter", price: "1.800,00", delivery_days: "12", message: note };
    const refused = await postForm(negotiatePage, path, m.token, fields, { id: app.id });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: "contact_detected",
      errors: { message: expect.stringMatching(NOTICE) },
      values: fields,
    });
    const sent = await postForm(negotiatePage, path, m.token, { ...fields, confirm_contact: "1" }, { id: app.id });
    expect(sent.status).toBe(302);
    const offers = async (token: string) =>
      (await call(negotiatePage.loader, jsonRequest(path, undefined, { token }), { id: app.id })).body.application
        .offers;
    const last = (await offers(f.token)).at(-1);
    expect(last).toMatchObject({ author: "merchant", price_cents: 180_000 });
    expect(last.message).toContain(CONTACT_MASK);
    expect(last.message).not.toContain("marina@");
    expect((await offers(m.token)).at(-1).message).toBe(note);
  });
});
