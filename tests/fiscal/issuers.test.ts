import { generateCnpj } from "@brazilian-utils/brazilian-utils";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser, createVerifiedIdentity, DEFAULT_PASSWORD } from "../../db/factories";
import { config } from "~/config.server";
import { collectPersonalData } from "~/services/accounts/data-export.server";
import { deleteAccount } from "~/services/accounts/deletion.server";
import { resetSealingKeys } from "~/services/accounts/sealed-secrets.server";
import {
  getOwnIssuer,
  getPlatformIssuer,
  issuerCredentials,
  PLATFORM_ISSUER,
  resealFiscalCertificates,
  saveOwnIssuer,
  savePlatformIssuer,
  switchOwnIssuing,
} from "~/services/fiscal/issuers.server";
import { AppError } from "~/services/platform/errors.server";
import { makeECnpjPfx, makeTestCa, type TestCa } from "../support/fiscal-certificates";
import { fiscalFields } from "../support/fiscal-issuers";
import { escrow, hired } from "../payments/support";

// The issuers' fiscal settings (docs/payments.md, "Notas fiscais"), on both engines: the view
// without secrets, the A1 checked on the way in (not a PFX, wrong password, expired, another CNPJ),
// the version precondition, one row for a burst of first saves, and the secrets absent from every
// answer, the audit log and the copy of someone's data; erased with the account, re-sealed by migrate.

const DAY = 86_400_000;
const CNPJ = "11222333000181";
let ca: TestCa;
let good: { pfx: Buffer; password: string };

beforeAll(() => {
  ca = makeTestCa();
  good = makeECnpjPfx({ cnpj: CNPJ, name: "FREELA INTERMEDIACAO LTDA", ca, password: "senha-forte-123" });
});

const blob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)]);

async function operator() {
  return createUser(db, { account_type: "operator", full_name: "Olga Operadora" });
}

/** The refusal of a promise: status, key and field errors. */
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return { status: error.status, key: error.key, errors: error.fieldErrors };
    throw error;
  }
  throw new Error("expected a refusal");
}

/** Every place a secret could show: none holds the password or the PFX. */
function expectNoSecret(what: unknown, secrets: { pfx: Buffer; password: string }) {
  const text = JSON.stringify(what);
  expect(text).not.toContain(secrets.password);
  expect(text).not.toContain(secrets.pfx.toString("base64").slice(0, 40));
  expect(text).not.toMatch(/certificate_sealed|password_sealed|v1\.[\w-]{8}\./);
}

describe("the platform's fiscal settings", () => {
  beforeEach(async () => {
    await db.deleteFrom("fiscal_issuers").where("owner", "=", PLATFORM_ISSUER).execute();
  });

  it("saves with the A1: a view without secrets, sealed at rest, opened by issuerCredentials, audited without secrets", async () => {
    const op = await operator();
    expect(await getPlatformIssuer()).toBeNull();
    const saved = await savePlatformIssuer(
      op,
      { ...fiscalFields(), certificate_password: good.password },
      blob(good.pfx),
    );
    expect(saved).toMatchObject({
      cnpj: CNPJ,
      municipality: "3550308",
      iss_rate_bps: 200,
      iss_rate: "2,00",
      simples_regime: null,
      enabled: true,
      version: 1,
      certificate: { cnpj: CNPJ, expires_soon: false, expired: false },
    });
    expectNoSecret(saved, good);
    expectNoSecret(await getPlatformIssuer(), good);

    const row = await db
      .selectFrom("fiscal_issuers")
      .selectAll()
      .where("owner", "=", PLATFORM_ISSUER)
      .executeTakeFirstOrThrow();
    expect(row.certificate_sealed).not.toContain(good.pfx.toString("base64").slice(0, 40));
    expect(row.password_sealed).not.toContain(good.password);
    const credentials = issuerCredentials(row);
    expect(credentials.password).toBe(good.password);
    expect(credentials.certificate.cnpj).toBe(CNPJ);
    expect(row.certificate_expires_at).toBe(credentials.certificate.notAfter.toISOString());

    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("target_id", "=", "fiscal")
      .where("actor_id", "=", op.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "setting.update", target_type: "setting", before: null });
    expect(JSON.parse(audit[0]!.after!)).toMatchObject({ cnpj: CNPJ, iss_rate_bps: 200 });
    expectNoSecret(audit, good);

    // Later saves keep the stored certificate when none is sent; the audit row names what changed.
    const again = await savePlatformIssuer(op, { ...fiscalFields({ iss_rate: "3,5" }), version: 1 });
    expect(again).toMatchObject({ iss_rate_bps: 350, version: 2, certificate: { cnpj: CNPJ } });
    const kept = await db
      .selectFrom("fiscal_issuers")
      .selectAll()
      .where("owner", "=", PLATFORM_ISSUER)
      .executeTakeFirstOrThrow();
    expect(issuerCredentials(kept).password).toBe(good.password);
    const last = await db
      .selectFrom("audit_log")
      .select(["before", "after"])
      .where("target_id", "=", "fiscal")
      .orderBy("created_at", "desc")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(last.before!)).toEqual({ iss_rate_bps: 200 });
    expect(JSON.parse(last.after!)).toEqual({ iss_rate_bps: 350 });
  });

  it("refuses each hostile upload on its field, and every field's problem at once", async () => {
    const op = await operator();
    const expired = makeECnpjPfx({
      cnpj: CNPJ,
      ca,
      notBefore: new Date(Date.now() - 400 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const other = makeECnpjPfx({ cnpj: "45723174000110", ca });
    const cases: [Record<string, unknown>, Blob | null, Record<string, string>][] = [
      [{ certificate_password: "x" }, blob(Buffer.from("isto não é um PFX")), { certificate: "certificate_not_pfx" }],
      [{ certificate_password: "errada" }, blob(good.pfx), { certificate_password: "certificate_wrong_password" }],
      [{ certificate_password: expired.password }, blob(expired.pfx), { certificate: "certificate_expired" }],
      [{ certificate_password: other.password }, blob(other.pfx), { certificate: "fiscal_certificate_other_cnpj" }],
      [{}, blob(good.pfx), { certificate_password: "fiscal_certificate_password_required" }],
      [{}, null, { certificate: "fiscal_certificate_required" }],
      [{ certificate: "not base64!" }, null, { certificate: "certificate_not_pfx" }],
    ];
    for (const [extra, upload, errors] of cases) {
      const r = await refusal(savePlatformIssuer(op, { ...fiscalFields(), ...extra }, upload));
      expect(r.status, JSON.stringify(errors)).toBe(422);
      expect(r.errors).toEqual(errors);
    }
    const tooLarge = await refusal(
      savePlatformIssuer(op, { ...fiscalFields(), certificate_password: "x" }, blob(Buffer.alloc(60 * 1024))),
    );
    expect(tooLarge).toMatchObject({ status: 413, errors: { certificate: "fiscal_certificate_too_large" } });

    const all = await refusal(
      savePlatformIssuer(
        op,
        {
          cnpj: "11.222.333/0001-00",
          legal_name: "",
          municipality: "355",
          simples_nacional: "me_epp",
          national_code: "1005",
          nbs_code: "abc",
          description: "x",
          iss_rate: "7,00",
          environment: "teste",
          municipal_code: "12",
        },
        null,
      ),
    );
    expect(all.status).toBe(422);
    expect(all.errors).toMatchObject({
      cnpj: "fiscal_cnpj_invalid",
      legal_name: "fiscal_legal_name_length",
      municipality: "fiscal_municipality_invalid",
      simples_regime: "fiscal_simples_regime_invalid",
      national_code: "fiscal_national_code_invalid",
      nbs_code: "fiscal_nbs_code_invalid",
      municipal_code: "fiscal_municipal_code_invalid",
      description: "fiscal_description_length",
      iss_rate: "fiscal_iss_rate_invalid",
      environment: "fiscal_environment_invalid",
      certificate: "fiscal_certificate_required",
    });
    for (const hostile of [null, [], "texto", { cnpj: 5 }]) {
      expect((await refusal(savePlatformIssuer(op, hostile, null))).status).toBe(422);
    }
    expect(await getPlatformIssuer()).toBeNull();
  });

  it("writes over the version the form saw: a stale one is 409; another CNPJ needs its own certificate", async () => {
    const op = await operator();
    await savePlatformIssuer(op, { ...fiscalFields(), certificate_password: good.password }, blob(good.pfx));
    await savePlatformIssuer(op, { ...fiscalFields({ legal_name: "Freela Ltda" }), version: 1 });
    expect((await refusal(savePlatformIssuer(op, { ...fiscalFields(), version: 1 }))).status).toBe(409);
    expect((await refusal(savePlatformIssuer(op, fiscalFields()))).status).toBe(409);
    // Two saves over the same version at once: one wins.
    const both = await Promise.allSettled([
      savePlatformIssuer(op, { ...fiscalFields({ iss_rate: "1" }), version: 2 }),
      savePlatformIssuer(op, { ...fiscalFields({ iss_rate: "4" }), version: 2 }),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const otherCnpj = await refusal(
      savePlatformIssuer(op, { ...fiscalFields({ cnpj: "45723174000110" }), version: 3 }),
    );
    expect(otherCnpj).toMatchObject({ status: 422, errors: { certificate: "fiscal_certificate_other_cnpj" } });
  });

  it("a burst of first saves makes one row: one wins, the others get 409", async () => {
    const op = await operator();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () =>
        savePlatformIssuer(op, { ...fiscalFields(), certificate_password: good.password }, blob(good.pfx)),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 409, key: "fiscal_changed" });
    }
    const rows = await db.selectFrom("fiscal_issuers").select("id").where("owner", "=", PLATFORM_ISSUER).execute();
    expect(rows).toHaveLength(1);
  });

  it("warns 30 days before the certificate expires", async () => {
    const op = await operator();
    const soon = makeECnpjPfx({ cnpj: CNPJ, ca, notAfter: new Date(Date.now() + 10 * DAY) });
    const saved = await savePlatformIssuer(
      op,
      { ...fiscalFields(), certificate_password: soon.password },
      blob(soon.pfx),
    );
    expect(saved.certificate).toMatchObject({ expires_soon: true, expired: false });
  });
});

describe("a freelancer's own issuer", () => {
  const own = async (identity: "person" | "company" | null, cnpj = generateCnpj()) => {
    const user = await createUser(db, { account_type: "freelancer" });
    if (identity) await createVerifiedIdentity(db, user.id, identity === "company" ? { document: cnpj } : {});
    const pfx = makeECnpjPfx({ cnpj, ca });
    return {
      user,
      cnpj,
      pfx,
      fields: { ...fiscalFields({ cnpj, simples_nacional: "mei" }), certificate_password: pfx.password },
    };
  };

  it("needs a verified identity, a company's own CNPJ, and a freelancer's account", async () => {
    const none = await own(null);
    expect(await getOwnIssuer(none.user)).toMatchObject({ issuer: null, identity: "missing" });
    expect(await refusal(saveOwnIssuer(none.user, none.fields, blob(none.pfx.pfx)))).toMatchObject({
      status: 409,
      key: "fiscal_identity_required",
    });
    const company = await own("company");
    const otherCnpj = generateCnpj();
    const otherPfx = makeECnpjPfx({ cnpj: otherCnpj, ca });
    expect(
      await refusal(
        saveOwnIssuer(
          company.user,
          { ...company.fields, cnpj: otherCnpj, certificate_password: otherPfx.password },
          blob(otherPfx.pfx),
        ),
      ),
    ).toMatchObject({ status: 422, errors: { cnpj: "fiscal_cnpj_not_yours" } });
    const saved = await saveOwnIssuer(company.user, company.fields, blob(company.pfx.pfx));
    expect(saved).toMatchObject({ cnpj: company.cnpj, enabled: true, version: 1, simples_nacional: "mei" });
    expect((await getOwnIssuer(company.user)).company_cnpj).toBe(company.cnpj);

    const merchant = await createUser(db, { account_type: "merchant" });
    expect(await refusal(getOwnIssuer(merchant))).toMatchObject({ status: 403, key: "forbidden_role" });
    expect(await refusal(saveOwnIssuer(merchant, company.fields, null))).toMatchObject({ status: 403 });
  });

  it("one issuer per CNPJ (the DPS ids are the CNPJ's): a second account with it is refused on its field, also in a burst", async () => {
    const first = await own("person");
    const second = await own("person", first.cnpj);
    const [a, b] = await Promise.allSettled([
      saveOwnIssuer(first.user, first.fields, blob(first.pfx.pfx)),
      saveOwnIssuer(second.user, second.fields, blob(second.pfx.pfx)),
    ]);
    expect([a.status, b.status].sort()).toEqual(["fulfilled", "rejected"]);
    const refused = (a.status === "rejected" ? a : b) as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 422, fieldErrors: { cnpj: "fiscal_cnpj_taken" } });
    const third = await own("person", first.cnpj);
    expect(await refusal(saveOwnIssuer(third.user, third.fields, blob(third.pfx.pfx)))).toMatchObject({
      status: 422,
      errors: { cnpj: "fiscal_cnpj_taken" },
    });
    const rows = await db.selectFrom("fiscal_issuers").select("owner").where("cnpj", "=", first.cnpj).execute();
    expect(rows).toHaveLength(1);
  });

  it("turns issuing off and on over the version; never issues with the platform's certificate", async () => {
    const person = await own("person");
    const saved = await saveOwnIssuer(person.user, person.fields, blob(person.pfx.pfx));
    const off = await switchOwnIssuing(person.user, { enabled: false, version: saved.version });
    expect(off).toMatchObject({ enabled: false, version: 2 });
    expect((await refusal(switchOwnIssuing(person.user, { enabled: true, version: 1 }))).status).toBe(409);
    expect(await switchOwnIssuing(person.user, { enabled: "1", version: 2 })).toMatchObject({ enabled: true });
    const row = await db
      .selectFrom("fiscal_issuers")
      .selectAll()
      .where("owner", "=", person.user.id)
      .executeTakeFirstOrThrow();
    expect(issuerCredentials(row).certificate.cnpj).toBe(person.cnpj);
    // Saving the form off keeps it off.
    expect(await saveOwnIssuer(person.user, { ...person.fields, enabled: "0", version: 3 })).toMatchObject({
      enabled: false,
      version: 4,
    });
  });

  it("a nota's tomador is in the copy of the taker's data, not of the provider's", async () => {
    escrow();
    const { owner, applicant, id } = await hired();
    const cnpj = generateCnpj();
    await createVerifiedIdentity(db, applicant.id, { document: cnpj });
    const pfx = makeECnpjPfx({ cnpj, ca });
    await saveOwnIssuer(applicant, { ...fiscalFields({ cnpj }), certificate_password: pfx.password }, blob(pfx.pfx));
    const issuer = await db
      .selectFrom("fiscal_issuers")
      .select("id")
      .where("owner", "=", applicant.id)
      .executeTakeFirstOrThrow();
    const milestone = await db
      .selectFrom("milestones")
      .select("id")
      .where("contract_id", "=", id)
      .executeTakeFirstOrThrow();
    const at = new Date().toISOString();
    await db
      .insertInto("nfse_documents")
      .values({
        id: crypto.randomUUID(),
        kind: "service",
        issuer_id: issuer.id,
        milestone_id: milestone.id,
        contract_id: id,
        provider_user_id: applicant.id,
        taker_user_id: owner.id,
        taker_document: "52998224725",
        taker_name: "Padaria Pão Quente",
        amount_cents: 300_000,
        competence: at.slice(0, 10),
        next_attempt_at: at,
        created_at: at,
        updated_at: at,
      })
      .execute();
    const provider = (await collectPersonalData(applicant.id)).kinds["fiscal.json"] as { notas: object[] };
    expect(provider.notas).toEqual([
      expect.objectContaining({ amount_cents: 300_000, taker_document: null, taker_name: null }),
    ]);
    const taker = (await collectPersonalData(owner.id)).kinds["fiscal.json"] as { issuer: null; notas: object[] };
    expect(taker.issuer).toBeNull();
    expect(taker.notas).toEqual([
      expect.objectContaining({ taker_document: "52998224725", taker_name: "Padaria Pão Quente" }),
    ]);
  });

  it("is in the copy of their data without secrets, and erased with the account (the row stays)", async () => {
    const person = await own("person");
    await saveOwnIssuer(person.user, person.fields, blob(person.pfx.pfx));
    const { kinds } = await collectPersonalData(person.user.id);
    expect(kinds["fiscal.json"]).toMatchObject({ issuer: { cnpj: person.cnpj, certificate: { cnpj: person.cnpj } } });
    expectNoSecret(kinds, person.pfx);

    await deleteAccount(person.user, { password: DEFAULT_PASSWORD });
    const row = await db
      .selectFrom("fiscal_issuers")
      .selectAll()
      .where("owner", "=", person.user.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ certificate_sealed: "", password_sealed: "", enabled: 0 });
  });
});

describe("re-sealing on migrate", () => {
  const original = config.SECRETS_KEY;
  afterEach(() => {
    config.SECRETS_KEY = original;
    resetSealingKeys();
  });

  it("moves the certificate and password to the current key; erased rows are left alone", async () => {
    await db.deleteFrom("fiscal_issuers").where("owner", "=", PLATFORM_ISSUER).execute();
    await savePlatformIssuer(
      await operator(),
      { ...fiscalFields(), certificate_password: good.password },
      blob(good.pfx),
    );
    const before = await db
      .selectFrom("fiscal_issuers")
      .selectAll()
      .where("owner", "=", PLATFORM_ISSUER)
      .executeTakeFirstOrThrow();
    config.SECRETS_KEY = "k".repeat(40);
    resetSealingKeys();
    expect((await resealFiscalCertificates()).resealed).toBeGreaterThanOrEqual(1);
    const after = await db
      .selectFrom("fiscal_issuers")
      .selectAll()
      .where("owner", "=", PLATFORM_ISSUER)
      .executeTakeFirstOrThrow();
    expect(after.certificate_sealed.split(".")[1]).not.toBe(before.certificate_sealed.split(".")[1]);
    expect(after.password_sealed.split(".")[1]).not.toBe(before.password_sealed.split(".")[1]);
    expect(issuerCredentials(after).password).toBe(good.password);
    expect(await resealFiscalCertificates()).toEqual({ resealed: 0, unreadable: 0 });
  });
});
