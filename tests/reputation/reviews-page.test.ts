import { describe, expect, it } from "vitest";
import * as contractPage from "~/routes/contracts+/$id";
import * as profilePage from "~/routes/_profiles+/freelancers.$id";
import * as invitationsPage from "~/routes/_account+/invitations";
import { acceptOffer, getApplication } from "~/services/marketplace/applications.server";
import { approveContract, deliverContract } from "~/services/contracts/contracts.server";
import { createSession } from "~/services/accounts/sessions.server";
import { db } from "../../db";
import { createOpportunity } from "../../db/factories";
import { get, postForm, toastOf } from "../operator/support";
import { negotiation } from "../support/market";

// Reviews, the reply and an invitation as a browser without JavaScript posts them (the forms' own
// fields, url-encoded), on both engines: each refusal on its field with what was typed kept, each
// success a redirect with its toast. The browser story (tests/e2e/reputation.spec.ts) runs with
// JavaScript.

/** A contract delivered and approved, and a session for each side. */
async function completed() {
  const { owner, applicant, application } = await negotiation("pending");
  const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
  await acceptOffer(owner, application.id, { offer_id: offer.id });
  await deliverContract(applicant, application.id, { message: "Logotipo e paleta de cores finais." });
  await approveContract(owner, application.id);
  const tokenOf = async (id: string) => (await createSession(id)).token;
  return {
    owner,
    applicant,
    id: application.id,
    merchant: await tokenOf(owner.id),
    freelancer: await tokenOf(applicant.id),
  };
}

describe("reputation's forms without JavaScript", () => {
  it("a review without stars keeps the comment; both review, the subject replies once", async () => {
    const c = await completed();
    const path = `/contracts/${c.id}`;
    const params = { id: c.id };
    const comment = "Entregou antes do prazo e ouviu cada pedido.";
    const noStars = await postForm(contractPage, path, c.merchant, { intent: "review", comment }, params);
    expect(noStars.status).toBe(422);
    expect(noStars.body.errors.rating).toBe("Escolha de 1 a 5 estrelas.");
    expect(noStars.body.values).toMatchObject({ intent: "review", comment });
    const first = await postForm(contractPage, path, c.merchant, { intent: "review", rating: "5", comment }, params);
    expect(first.status).toBe(302);
    expect(await toastOf(first)).toBe("Avaliação enviada.");
    const second = await postForm(
      contractPage,
      path,
      c.freelancer,
      { intent: "review", rating: "4", comment: "Briefing claro e pagamento em dia." },
      params,
    );
    expect(second.status).toBe(302);
    expect(await toastOf(second)).toBe("Avaliação enviada.");

    const theirs = (await get(contractPage, path, c.freelancer, params)).body.reviews.theirs;
    expect(theirs).toMatchObject({ comment });
    const noReply = await postForm(
      contractPage,
      path,
      c.freelancer,
      { intent: "reply", review_id: theirs.id, reply: "" },
      params,
    );
    expect(noReply.status).toBe(422);
    expect(noReply.body.errors.reply).toBe("Escreva a resposta: este campo é obrigatório.");
    const reply = "Obrigada, Marina! Foi um prazer.";
    const replied = await postForm(
      contractPage,
      path,
      c.freelancer,
      { intent: "reply", review_id: theirs.id, reply },
      params,
    );
    expect(replied.status).toBe(302);
    expect(await toastOf(replied)).toBe("Resposta publicada.");
    expect((await get(contractPage, path, c.freelancer, params)).body.reviews.can_reply).toBe(false);
  });

  it("an invitation without an opportunity keeps the message; sent, then declined", async () => {
    const c = await completed();
    const opp = await createOpportunity(db, { merchant_id: c.owner.id, title: "Cardápio ilustrado" });
    const path = `/freelancers/${c.applicant.id}`;
    const params = { id: c.applicant.id };
    const message = "Adorei o logotipo, topa ilustrar o cardápio?";
    const refused = await postForm(profilePage, path, c.merchant, { opportunity: "", message }, params);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.opportunity).toBe("Escolha uma das suas oportunidades abertas.");
    expect(refused.body.values.message).toBe(message);
    const sent = await postForm(profilePage, path, c.merchant, { opportunity: opp.uuid, message }, params);
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe(path);
    expect(await toastOf(sent)).toBe("Convite enviado.");

    const [invitation] = (await get(invitationsPage, "/invitations", c.freelancer)).body.data;
    expect(invitation).toMatchObject({ status: "pending", message, opportunity: { uuid: opp.uuid } });
    const declined = await postForm(invitationsPage, "/invitations", c.freelancer, { id: String(invitation.id) });
    expect(declined.status).toBe(302);
    expect(await toastOf(declined)).toBe("Convite recusado.");
    expect((await get(invitationsPage, "/invitations", c.freelancer)).body.data[0].status).toBe("declined");
  });
});
