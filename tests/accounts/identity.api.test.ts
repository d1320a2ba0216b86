import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateCnpj, generateCpf } from "@brazilian-utils/brazilian-utils";
import { db } from "../../db";
import { createVerifiedIdentity } from "../../db/factories";
import * as identityRoute from "~/routes/api+/_account+/identity._index";
import * as queueRoute from "~/routes/api+/admin+/identity._index";
import * as identityPage from "~/routes/_account+/identidade";
import * as adminPage from "~/routes/admin+/identity";
import * as ownFileRoute from "~/routes/_account+/identidade.arquivos.$file";
import * as operatorFileRoute from "~/routes/admin+/identity.$id.files.$file";
import { config } from "~/config.server";
import { pruneExpired } from "~/services/platform/housekeeping.server";
import { getPublicProfile, listPublicProfiles } from "~/services/discovery/public.server";
import { person as personLd } from "~/web/public-page.server";
import { statementsOf } from "../support/statements";
import { decide, identityOf, multipart, pending, person, photos, saveIdentity, sendPhotos } from "./identity-support";
import { readAttachment } from "~/services/platform/uploads.server";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import { getApplication, listOpportunityApplications } from "~/services/marketplace/applications.server";
import { deleteAccount } from "~/services/accounts/deletion.server";
import { issueCharge } from "~/services/payments/charges.server";
import { requestPayout, setPayoutAccount } from "~/services/payments/payouts.server";
import { DEFAULT_PASSWORD } from "../../db/factories";
import { BASE, call, mailsTo, signedInUser } from "../support/helpers";
import { PNG_1X1 } from "../support/fixtures";
import { outcome, negotiation } from "../support/market";
import { auditRows, get, postForm, signedInOperator } from "../operator/support";
import { deliver, escrow, fund, hired } from "../payments/support";
import { approveContract } from "~/services/contracts/contracts.server";
import { startMercadoPago } from "../payments/mercadopago-server";

// Who is who (docs/product.md, "Identidade"): the fiscal record, its verification by an
// operator, and payouts only to the verified person's key (docs/payments.md, "Repasses").

describe("fiscal identity", () => {
  it("records a person or a company with valid check digits; bad input is a Portuguese 422", async () => {
    const { token } = await signedInUser({ account_type: "freelancer" });
    expect((await get(identityRoute, "/api/identity", token)).body.data).toBeNull();
    const bad = await saveIdentity(token, { ...person("123.456.789-00"), birth_date: "2020-01-01" });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      document: "Informe um CPF válido.",
      birth_date: "Informe a data de nascimento (maior de 18 anos), como 31/12/1990.",
    });
    const badCompany = await saveIdentity(token, {
      kind: "company",
      document: "11.222.333/0001-00",
      legal_name: "Padaria Pão Quente Ltda",
      responsible_cpf: "1",
    });
    expect(badCompany.body.errors).toEqual({
      document: "Informe um CNPJ válido.",
      responsible_cpf: "Informe um CPF válido do responsável pela empresa.",
    });
    for (const hostile of [
      null,
      [],
      { kind: "alien" },
      { ...person(), legal_name: "a\u0000b" },
      { ...person(), document: 5 },
    ]) {
      const r = await saveIdentity(token, hostile);
      expect([400, 422]).toContain(r.status);
    }
    const cnpj = generateCnpj();
    const company = await saveIdentity(token, {
      kind: "company",
      document: cnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, "$1.$2.$3/$4-$5"),
      legal_name: "Padaria Pão Quente Ltda",
      responsible_cpf: generateCpf(),
    });
    expect(company.status).toBe(200);
    expect(company.body.message).toBe("Dados de identidade salvos.");
    expect(company.body.data).toMatchObject({ kind: "company", document: cnpj, status: "none", version: 1 });
  });

  it("one document per active account: a second account is refused, and the operator sees the attempt", async () => {
    const first = await signedInUser({ account_type: "freelancer" });
    const second = await signedInUser({ account_type: "merchant" });
    const document = generateCpf();
    expect((await saveIdentity(first.token, person(document))).status).toBe(200);
    const taken = await saveIdentity(second.token, person(document));
    expect(taken.status).toBe(409);
    expect(taken.body.message).toMatch(/^Este documento já está em outra conta ativa do Freela/);
    expect(taken.body.errors).toEqual({ document: "Este CPF já está em outra conta ativa." });
    // Two accounts at once with one new document: one has it.
    const a = await signedInUser({ account_type: "freelancer" });
    const b = await signedInUser({ account_type: "freelancer" });
    const shared = generateCpf();
    const both = await Promise.all([saveIdentity(a.token, person(shared)), saveIdentity(b.token, person(shared))]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);

    const op = await signedInOperator();
    const queue = await get(queueRoute, "/api/admin/identity", op.token);
    expect(queue.status).toBe(200);
    expect(queue.body.conflicts).toContainEqual(
      expect.objectContaining({ user_id: second.user.id, holder_id: first.user.id, email: second.user.email }),
    );
    // The queue is the operators' only.
    expect((await get(queueRoute, "/api/admin/identity", first.token)).status).toBe(404);
  });

  it("is in the account's copy of its data, and a deleted account's document is erased and free again", async () => {
    const { user, token } = await signedInUser({ account_type: "freelancer" });
    const document = generateCpf();
    await saveIdentity(token, person(document));
    await deleteAccount(user, { password: DEFAULT_PASSWORD });
    const row = await identityOf(user.id);
    expect(row).toMatchObject({ document: null, birth_date: null, legal_name: "Conta excluída" });
    const next = await signedInUser({ account_type: "freelancer" });
    expect((await saveIdentity(next.token, person(document))).status).toBe(200);
  });
});

describe("verification", () => {
  it("none → pending → verified: photos checked, private to the owner and operators, decided once, audited, e-mailed", async () => {
    const { user, token } = await signedInUser({ account_type: "freelancer" });
    expect((await sendPhotos(token)).status).toBe(409); // no typed data yet
    await saveIdentity(token, person());
    const missing = await sendPhotos(token, { doc_type: "passaporte", front: new Blob([PNG_1X1]) });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({
      doc_type: "Escolha RG ou CNH.",
      back: "Envie a foto do verso do documento.",
      selfie: "Envie uma selfie segurando o documento.",
    });
    const notImage = await sendPhotos(token, { ...photos(), selfie: new Blob(["%PDF-1.4 not a photo"]) });
    expect(notImage.status).toBe(422);
    expect(await db.selectFrom("users").select("storage_bytes").where("id", "=", user.id).executeTakeFirst()).toEqual({
      storage_bytes: expect.anything(),
    });
    const sent = await sendPhotos(token);
    expect(sent.status).toBe(200);
    expect(sent.body.data).toMatchObject({ status: "pending", files: ["front", "back", "selfie"] });
    expect(
      Number(
        (await db.selectFrom("users").select("storage_bytes").where("id", "=", user.id).executeTakeFirstOrThrow())
          .storage_bytes,
      ),
    ).toBe(3 * PNG_1X1.byteLength);
    // New photos while pending replace the old ones: those files are deleted, their bytes given back.
    const old = await identityOf(user.id);
    const resent = await sendPhotos(token);
    expect(resent.status).toBe(200);
    const replaced = await identityOf(user.id);
    expect(replaced).toMatchObject({ status: "pending", version: old.version + 1 });
    expect(replaced.front_file).not.toBe(old.front_file);
    for (const name of [old.front_file, old.back_file, old.selfie_file]) expect(await readAttachment(name!)).toBeNull();
    expect(
      Number(
        (await db.selectFrom("users").select("storage_bytes").where("id", "=", user.id).executeTakeFirstOrThrow())
          .storage_bytes,
      ),
    ).toBe(3 * PNG_1X1.byteLength);

    // The photos: the owner and operators only.
    const own = await call(
      ownFileRoute.loader,
      new Request(`${BASE}/identidade/arquivos/front`, { headers: { Authorization: `Bearer ${token}` } }),
      { file: "front" },
    );
    expect(own.status).toBe(200);
    const stranger = await signedInUser({ account_type: "merchant" });
    const op = await signedInOperator();
    const asStranger = await get(operatorFileRoute, `/admin/identity/${user.id}/files/front`, stranger.token, {
      id: user.id,
      file: "front",
    });
    expect(asStranger.status).toBe(404);
    const asOperator = await get(operatorFileRoute, `/admin/identity/${user.id}/files/selfie`, op.token, {
      id: user.id,
      file: "selfie",
    });
    expect(asOperator.status).toBe(200);
    expect(asOperator.headers.get("Cache-Control")).toBe("private, no-store");

    const queued = (await get(queueRoute, "/api/admin/identity", op.token)).body.data.find(
      (i: { user_id: string }) => i.user_id === user.id,
    );
    expect(queued).toMatchObject({ status: "pending", legal_name: "Júlia Recebedora da Silva" });
    // Two operators at once: one decision, 409 for the other.
    const other = await signedInOperator("Otto Operador");
    const [a, b] = await Promise.all([
      decide(op.token, user.id, { decision: "approve", version: queued.version }),
      decide(other.token, user.id, { decision: "reject", version: queued.version, reason: "Foto ilegível." }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body.message).toBe("Esta identidade mudou ou já foi decidida por outro operador. Recarregue a fila.");
    const row = await identityOf(user.id);
    const audits = (await auditRows()).filter((r) => r.target_id === user.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]!.action).toBe(row.status === "verified" ? "identity.approve" : "identity.reject");
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`${config.APP_URL}/identidade`);
  });

  it("rejected with a reason the person reads, sent again, then approved; an approval of what was replaced is 409", async () => {
    const { user, token } = await pending();
    const op = await signedInOperator();
    const v1 = (await identityOf(user.id)).version;
    const noReason = await decide(op.token, user.id, { decision: "reject", version: v1, reason: "" });
    expect(noReason.status).toBe(422);
    for (const version of [1e20, -1, "x", null, 1.5]) {
      expect((await decide(op.token, user.id, { decision: "approve", version })).status).toBe(422);
    }
    expect(
      (await decide(op.token, user.id, { decision: "reject", version: v1, reason: "A selfie não mostra o documento." }))
        .status,
    ).toBe(200);
    const seen = (await get(identityRoute, "/api/identity", token)).body.data;
    expect(seen).toMatchObject({ status: "rejected", reason: "A selfie não mostra o documento." });
    expect((await mailsTo(user.email))[0]!.text).toContain("A selfie não mostra o documento.");

    // Approve (of the first sending, seen before the rejection) racing the resend: the approval
    // never lands on photos the operator did not see, whichever comes first.
    const [approve, resend] = await Promise.all([
      decide(op.token, user.id, { decision: "approve", version: v1 }),
      sendPhotos(token),
    ]);
    expect(approve.status).toBe(409);
    expect(resend.status).toBe(200);
    const late = await decide(op.token, user.id, { decision: "approve", version: v1 });
    expect(late.status).toBe(409);
    expect((await identityOf(user.id)).status).toBe("pending");
    const v2 = (await identityOf(user.id)).version;
    expect((await decide(op.token, user.id, { decision: "approve", version: v2 })).status).toBe(200);
    expect((await identityOf(user.id)).status).toBe("verified");

    // A new legal name after the verification: back to pending (the photos kept go back to the queue).
    const renamed = await saveIdentity(token, { ...person(seen.document), legal_name: "Júlia Recebedora Souza" });
    expect(renamed.body.data.status).toBe("pending");
  });

  it("the hourly housekeeping deletes the photos 90 days after a decision, keeping the decision, and gives the quota back", async () => {
    const { user } = await pending();
    const op = await signedInOperator();
    await decide(op.token, user.id, { decision: "approve", version: (await identityOf(user.id)).version });
    const before = await identityOf(user.id);
    expect((await pruneExpired(new Date(Date.now() + 89 * 86_400_000))).identityFiles).toBe(0);
    expect((await pruneExpired(new Date(Date.now() + 91 * 86_400_000))).identityFiles).toBeGreaterThanOrEqual(1);
    const after = await identityOf(user.id);
    expect(after).toMatchObject({
      status: "verified",
      front_file: null,
      selfie_file: null,
      decided_at: before.decided_at,
    });
    const used = await db
      .selectFrom("users")
      .select("storage_bytes")
      .where("id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(Number(used.storage_bytes)).toBe(0);
  });

  it("shows the badge on the public profile, its JSON-LD and the visitors' directory, in the same queries", async () => {
    const { user, document } = await pending();
    expect((await getPublicProfile(user.id)).identity_verified).toBe(false);
    expect(personLd(await getPublicProfile(user.id))).not.toHaveProperty("hasCredential");
    const op = await signedInOperator();
    await decide(op.token, user.id, { decision: "approve", version: (await identityOf(user.id)).version });

    expect(await statementsOf(() => getPublicProfile(user.id))).toBe(3);
    const profile = await getPublicProfile(user.id);
    expect(profile.identity_verified).toBe(true);
    const ld = personLd(profile);
    expect(ld.hasCredential).toMatchObject({ name: "Identidade verificada" });
    expect(JSON.stringify({ profile, ld })).not.toContain(document);

    const listed = await listPublicProfiles({ per_page: "100" });
    expect(listed.data.find((p) => p.id === user.id)?.identity_verified).toBe(true);
    expect(await statementsOf(() => listPublicProfiles({ per_page: "100" }))).toBe(3);
  });

  it("shows the badge on the proposals the merchant reads, in the same queries", async () => {
    const { user, document } = await pending();
    const merchant = await createUser(db, { account_type: "merchant" });
    const opportunity = await createOpportunity(db, { merchant_id: merchant.id });
    const application = await createApplication(db, { opportunity, freelancer_id: user.id });
    const list = () => listOpportunityApplications(merchant, opportunity.uuid, {});
    expect((await list()).data[0]!.freelancer.identity_verified).toBe(false);
    const before = await statementsOf(list);
    const op = await signedInOperator();
    await decide(op.token, user.id, { decision: "approve", version: (await identityOf(user.id)).version });
    expect((await list()).data[0]!.freelancer.identity_verified).toBe(true);
    expect(await statementsOf(list)).toBe(before);
    const detail = await getApplication(merchant, application.id);
    expect(detail.freelancer.identity_verified).toBe(true);
    expect(JSON.stringify(detail)).not.toContain(document);
  });

  it("works without JavaScript: the account's form and the operator's decision", async () => {
    const { user, token } = await signedInUser({ account_type: "freelancer" });
    const refused = await postForm(identityPage, "/identidade", token, { ...person("111"), kind: "person" });
    expect(refused.status).toBe(422);
    const saved = await postForm(identityPage, "/identidade", token, person());
    expect(saved.status).toBe(302);
    const sent = await call(identityPage.action, multipart("/identidade", token, photos()));
    expect(sent.status).toBe(302);
    const op = await signedInOperator();
    const version = String((await identityOf(user.id)).version);
    const noReason = await postForm(adminPage, "/admin/identity", op.token, { intent: "reject", id: user.id, version });
    expect(noReason.status).toBe(422);
    const approved = await postForm(adminPage, "/admin/identity", op.token, {
      intent: "approve",
      id: user.id,
      version,
    });
    expect(approved.status).toBe(302);
    expect((await identityOf(user.id)).status).toBe("verified");
  });
});

describe("money follows identity", () => {
  beforeAll(() => escrow());

  async function earned() {
    const { owner, applicant, id } = await hired();
    await fund(owner, id);
    await deliver(applicant, id);
    await approveContract(owner, id);
    return applicant;
  }

  it("no payout before the identity is verified; then only to a key of the verified CPF", async () => {
    const applicant = await earned();
    const cpf = generateCpf();
    await setPayoutAccount(applicant, { key_type: "cpf", pix_key: cpf, holder_name: "Júlia", holder_document: cpf });
    const early = await outcome(requestPayout(applicant));
    expect(early).toBe(409);
    await expect(requestPayout(applicant)).rejects.toMatchObject({ key: "identity_not_verified_payout" });
    await createVerifiedIdentity(db, applicant.id, { document: generateCpf() });
    await expect(requestPayout(applicant)).rejects.toMatchObject({ key: "payout_holder_mismatch" });
  });

  it("changing the key holds payouts for 24 hours", async () => {
    const applicant = await earned();
    const cpf = await createVerifiedIdentity(db, applicant.id);
    await setPayoutAccount(applicant, {
      key_type: "evp",
      pix_key: "123e4567-e12b-12d1-a456-426655440000",
      holder_name: "Júlia",
      holder_document: cpf,
    });
    await setPayoutAccount(applicant, {
      key_type: "cpf",
      pix_key: cpf,
      holder_name: "Júlia",
      holder_document: cpf,
      password: DEFAULT_PASSWORD,
    });
    await expect(requestPayout(applicant)).rejects.toMatchObject({ key: "payout_key_held" });
    await db
      .updateTable("payout_accounts")
      .set({ held_until: new Date(Date.now() - 1000).toISOString() })
      .where("user_id", "=", applicant.id)
      .execute();
    expect((await requestPayout(applicant)).status).toBe("requested");
  });

  it("merchants record who they are before funding more than IDENTITY_REQUIRED_ABOVE_CENTS in 30 days", async () => {
    const { owner, application } = await negotiation("pending");
    const { acceptOffer, getApplication } = await import("~/services/marketplace/applications.server");
    const offer = (await getApplication(owner, application.id)).offers.at(-1)!;
    await acceptOffer(owner, application.id, { offer_id: offer.id });
    await expect(issueCharge(owner, application.id)).rejects.toMatchObject({
      status: 409,
      key: "identity_required_to_fund",
    });
    await createVerifiedIdentity(db, owner.id);
    expect((await issueCharge(owner, application.id)).created).toBe(true);
  });
});

describe("payout key holder by the provider's key lookup (Mercado Pago stand-in)", () => {
  let mp: Awaited<ReturnType<typeof startMercadoPago>>;
  beforeAll(async () => {
    mp = await startMercadoPago({ token: "TEST-token", secret: "segredo-de-webhook-1234" });
  });
  afterAll(async () => {
    await mp.close();
  });

  it("an e-mail key pays out when the DICT holder is the verified document, and is refused otherwise", async () => {
    escrow();
    const applicant = await (async () => {
      const { owner, applicant, id } = await hired();
      await fund(owner, id);
      await deliver(applicant, id);
      await approveContract(owner, id);
      return applicant;
    })();
    const cpf = await createVerifiedIdentity(db, applicant.id);
    await setPayoutAccount(applicant, {
      key_type: "email",
      pix_key: "julia@example.com",
      holder_name: "Júlia",
      holder_document: cpf,
    });
    Object.assign(config, {
      PAYMENTS_PROVIDER: "mercadopago",
      MERCADOPAGO_API_URL: mp.url,
      MERCADOPAGO_ACCESS_TOKEN: "TEST-token",
    });
    try {
      mp.registerKey("julia@example.com", generateCpf());
      await expect(requestPayout(applicant)).rejects.toMatchObject({ key: "payout_holder_mismatch" });
      mp.registerKey("julia@example.com", cpf);
      expect((await requestPayout(applicant)).status).toBe("requested");
    } finally {
      config.PAYMENTS_PROVIDER = "manual";
    }
  });
});

describe("Identidade verificada", () => {
  it("shows on the public profile (never the document) and filters the directory", async () => {
    const { listFreelancers, getFreelancerProfile } = await import("~/services/reputation/profiles.server");
    const { user } = await signedInUser({ account_type: "freelancer", full_name: "Verônica Verificada" });
    const other = await signedInUser({ account_type: "freelancer", full_name: "Verônica Sem Selo" });
    expect((await getFreelancerProfile(user.id)).identity_verified).toBe(false);
    const document = await createVerifiedIdentity(db, user.id);
    const profile = await getFreelancerProfile(user.id);
    expect(profile.identity_verified).toBe(true);
    expect(JSON.stringify(profile)).not.toContain(document);
    const listed = await listFreelancers({ q: "Verônica", verified: "1" });
    expect(listed.data.map((p) => p.id)).toEqual([user.id]);
    expect((await listFreelancers({ q: "Verônica" })).data.map((p) => p.id)).toContain(other.user.id);
    await expect(listFreelancers({ verified: "sim" })).rejects.toMatchObject({ status: 422 });
  });
});
