import { describe, expect, it } from "vitest";
import * as securityPage from "~/routes/_account+/account.security";
import * as contractPage from "~/routes/contracts+/$id";
import { action as loginAction } from "~/routes/api+/_auth+/login";
import { approveContract, deliverContract } from "~/services/contracts/contracts.server";
import { acceptOffer, getApplication } from "~/services/marketplace/applications.server";
import { db } from "../../db";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import { get, postForm, toastOf } from "../operator/support";
import { call, jsonRequest, mailsTo } from "../support/helpers";
import { merchant } from "../support/market";

// "Excluir conta" on /account/security as a browser without JavaScript posts it (the form's own
// fields, url-encoded), on both engines: the reason instead of the form while the contract runs,
// the box kept ticked when refused, then the deletion: signed out, the sign-in page with the news,
// the goodbye e-mail, and the merchant's contract under "Conta excluída". The browser story
// (tests/e2e/account-deletion.spec.ts) runs with JavaScript.

const PASSWORD = "segredo123";
let n = 0;
const login = (email: string, password = PASSWORD) => call(loginAction, jsonRequest("/api/login", { email, password }));

async function hiredFreelancer() {
  const owner = await merchant();
  const email = `excluir.pagina${++n}.${Date.now()}@example.com`;
  const applicant = await createUser(db, {
    account_type: "freelancer",
    email,
    password: PASSWORD,
    display_name: "Julinha",
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
  const token = (await login(email)).body.access_token as string;
  const ownerToken = (await login(owner.email, "freela123")).body.access_token as string;
  return { owner, ownerToken, applicant, email, token, id: application.id };
}

const remove = (token: string, fields: Record<string, string>) =>
  postForm(securityPage, "/account/security", token, { intent: "account_delete", ...fields });

describe("deleting one's account on the security page without JavaScript", () => {
  it("says why not while the contract runs, keeps the box ticked when refused, then deletes", async () => {
    const { owner, ownerToken, applicant, email, token, id } = await hiredFreelancer();

    // While the contract runs: the reason instead of the form, and a post refused with it.
    const running = await get(securityPage, "/account/security", token);
    expect(running.body.deletion.blocker).toMatch(/enquanto houver um contrato em andamento/);
    const early = await remove(token, { password: PASSWORD, confirm: "1" });
    expect(early.status).toBe(409);
    expect((await login(email)).status).toBe(200);

    await deliverContract(applicant, id, { message: "Logotipo e paleta de cores finais." });
    await approveContract(owner, id);
    expect((await get(securityPage, "/account/security", token)).body.deletion.blocker).toBeNull();

    // The box not ticked, then a wrong password: the box stays ticked, the password is not typed back.
    const unticked = await remove(token, { password: PASSWORD });
    expect(unticked.status).toBe(422);
    expect(unticked.body.errors.confirm).toBe("Marque a caixa para confirmar que entendeu o que acontece.");
    expect(unticked.body.values.intent).toBe("account_delete");
    const wrong = await remove(token, { password: "senha-errada-1", confirm: "1" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.password).toBe("Senha atual incorreta.");
    expect(wrong.body.values).toMatchObject({ intent: "account_delete", confirm: "1" });
    expect(wrong.body.values.password).toBeUndefined();
    expect((await login(email)).status).toBe(200);

    const done = await remove(token, { password: PASSWORD, confirm: "1" });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/auth/login");
    expect(await toastOf(done)).toMatch(/^Sua conta foi excluída\./);
    expect(done.headers.getSetCookie().some((c) => /^freela_session=;/.test(c) && /Max-Age=0/i.test(c))).toBe(true);
    expect((await get(securityPage, "/account/security", token)).status).toBe(302);
    expect((await login(email)).status).toBe(401);
    const goodbye = (await mailsTo(email)).find((m) => /sua conta foi excluída/.test(m.subject))!;
    expect(goodbye.text).toContain("Sua conta no Freela foi excluída");

    // The merchant still has the contract, with the other side anonymised.
    const contract = await get(contractPage, `/contracts/${id}`, ownerToken, { id });
    expect(JSON.stringify(contract.body)).toContain("Conta excluída");
    expect(JSON.stringify(contract.body)).not.toContain("Julinha");
    expect(JSON.stringify(contract.body)).toContain("Logotipo e paleta de cores finais.");
  });
});
