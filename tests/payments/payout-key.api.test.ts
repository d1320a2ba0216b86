import { beforeAll, describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import * as payoutAccountRoute from "~/routes/api+/_account+/payout-account";
import { createSession } from "~/services/accounts/sessions.server";
import { totpCode, TOTP_PERIOD } from "~/services/accounts/two-factor.server";
import { call, jsonRequest, mailsTo } from "../support/helpers";
import * as financePage from "~/routes/_account+/financeiro._index";
import { get, OPERATOR_TOTP_SECRET, postForm } from "../operator/support";
import { escrow } from "./support";

// The payout key (docs/payments.md, "Repasses"): registered once without more, changed only with
// the current password (and a second factor when two-factor is on), each change told by e-mail.

beforeAll(() => escrow(1_000));

let n = 0;
async function freelancer({ twoFactor = false } = {}) {
  const email = `chave${++n}.${Date.now()}@example.com`;
  const user = await createUser(db, { email, account_type: "freelancer", password: "segredo123" });
  if (twoFactor) {
    const at = new Date().toISOString();
    await db
      .insertInto("two_factor")
      .values({ user_id: user.id, secret: OPERATOR_TOTP_SECRET, confirmed_at: at, last_step: 0, created_at: at })
      .execute();
  }
  return { user, email, token: (await createSession(user.id)).token };
}

const key = (pix_key: string, more: Record<string, unknown> = {}) => ({
  key_type: "email",
  pix_key,
  holder_name: "Pessoa Recebedora",
  holder_document: "529.982.247-25",
  ...more,
});
const save = (token: string, body: unknown) =>
  call(payoutAccountRoute.action, jsonRequest("/api/payout-account", body, { token, method: "POST" }));
const keyOf = async (userId: string) =>
  (await db.selectFrom("payout_accounts").select("pix_key").where("user_id", "=", userId).executeTakeFirst())?.pix_key;

describe("changing the payout key", () => {
  it("needs the current password (422 in Portuguese otherwise) and tells the account's address", async () => {
    const f = await freelancer();
    expect((await save(f.token, key("primeira@example.com"))).status).toBe(200);
    expect(await mailsTo(f.email)).toEqual([]);

    const bare = await save(f.token, key("ladrao@example.com"));
    expect(bare.status).toBe(422);
    expect(bare.body.message).toBe(
      "Para trocar a chave Pix, confirme com a sua senha atual (e o código, se a verificação em duas etapas estiver ativa).",
    );
    expect(bare.body.errors.password).toBe("Informe a senha.");
    const wrong = await save(f.token, key("ladrao@example.com", { password: "errada1234" }));
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.password).toBe("Senha atual incorreta.");
    expect(await keyOf(f.user.id)).toBe("primeira@example.com");
    expect(await mailsTo(f.email)).toEqual([]);

    const ok = await save(f.token, key("nova-chave@example.com", { password: "segredo123" }));
    expect(ok.status).toBe(200);
    expect(await keyOf(f.user.id)).toBe("nova-chave@example.com");
    const [mail, ...more] = await mailsTo(f.email);
    expect(more).toEqual([]);
    expect(mail.subject).toBe("Freela: a chave Pix de repasse foi trocada");
    expect(mail.text).toContain("a nova termina em ….com");
    expect(mail.text).not.toContain("nova-chave@example.com");
    expect(mail.text).toContain("/forgot-password");
  });

  it("with two-factor on, also a code of the app (a wrong or missing one is 422)", async () => {
    const f = await freelancer({ twoFactor: true });
    expect((await save(f.token, key("primeira@example.com"))).status).toBe(200);
    const noCode = await save(f.token, key("outra@example.com", { password: "segredo123" }));
    expect(noCode.status).toBe(422);
    expect(noCode.body.errors.code).toBe("Digite o código.");
    const wrongCode = await save(f.token, key("outra@example.com", { password: "segredo123", code: "000000" }));
    expect(wrongCode.status).toBe(422);
    expect(wrongCode.body.errors.code).toBe("Código incorreto ou já usado.");
    expect(await keyOf(f.user.id)).toBe("primeira@example.com");
    const code = totpCode(OPERATOR_TOTP_SECRET, Date.now() + TOTP_PERIOD * 1000);
    const ok = await save(f.token, key("outra@example.com", { password: "segredo123", code }));
    expect(ok.status).toBe(200);
    expect(await keyOf(f.user.id)).toBe("outra@example.com");
    expect((await mailsTo(f.email)).map((m) => m.subject)).toEqual(["Freela: a chave Pix de repasse foi trocada"]);
  });

  it("two changes at once: each wins or gets 409 (never a 5xx), one e-mail per change made", async () => {
    const f = await freelancer();
    await save(f.token, key("primeira@example.com"));
    const answers = await Promise.all(
      ["um@example.com", "dois@example.com"].map((k) => save(f.token, key(k, { password: "segredo123" }))),
    );
    const made = answers.filter((a) => a.status === 200).length;
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(made).toBeGreaterThanOrEqual(1);
    expect(["um@example.com", "dois@example.com"]).toContain(await keyOf(f.user.id));
    expect(await mailsTo(f.email)).toHaveLength(made);
  });

  it("the /financeiro form without JavaScript: asks the password once a key exists, never sends it back", async () => {
    const f = await freelancer({ twoFactor: true });
    const form = (fields: Record<string, string>) =>
      postForm(financePage, "/financeiro", f.token, { intent: "payout_account", ...key("x@example.com"), ...fields });
    const first = await form({ pix_key: "primeira@example.com" });
    expect(first.status).toBe(302);
    const page = await get(financePage, "/financeiro", f.token);
    expect(page.body).toMatchObject({ account: { pix_key: "primeira@example.com" }, twoFactor: true });

    const refused = await form({ pix_key: "outra@example.com", password: "errada1234", code: "000000" });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.password).toBe("Senha atual incorreta.");
    expect(refused.body.values).toMatchObject({ pix_key: "outra@example.com" });
    expect(refused.body.values.password).toBeUndefined();
    const code = totpCode(OPERATOR_TOTP_SECRET, Date.now() + TOTP_PERIOD * 1000);
    expect((await form({ pix_key: "outra@example.com", password: "segredo123", code })).status).toBe(302);
    expect(await keyOf(f.user.id)).toBe("outra@example.com");
  });
});
