import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { action as registerAction } from "~/routes/api+/_auth+/register";
import { action as loginAction } from "~/routes/api+/_auth+/login";
import { action as verifyAction } from "~/routes/api+/_auth+/verify-email";
import { action as resendAction } from "~/routes/api+/_account+/verify-email.resend";
import { action as emailChangeAction } from "~/routes/api+/_account+/email";
import { loader as profileLoader } from "~/routes/api+/_account+/profile";
import { action as createOpportunityAction } from "~/routes/api+/opportunities+/_index";
import { action as applyAction } from "~/routes/api+/opportunities+/$uuid.applications";
import { action as inviteAction } from "~/routes/api+/opportunities+/$uuid.invitations";
import { action as messageAction } from "~/routes/api+/applications+/$id.messages";
import { drainOutbox } from "~/services/platform/outbox.server";
import { db } from "../../db";
import { createApplication, createOpportunity, createUser } from "../../db/factories";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { validApplication, validOpportunity } from "../support/fixtures";
import { startSmtp } from "../support/smtp";

// Verified e-mail (docs/product.md §1), through the API handlers on both engines: the link sent
// at registration (a real SMTP server receives it), used once, expired, another account's, the
// writes an unconfirmed account is refused (403 with the reason), resending, and changing the
// address (confirmed before it takes effect, the old address told).

let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp.close());
afterEach(() => {
  config.EMAIL_VERIFICATION = "required";
});

const drain = () => drainOutbox({ send: smtp.send });

/** The last link of `kind` e-mailed to `to` (sent through the real SMTP server). */
async function linkTo(to: string, subject: RegExp) {
  await drain();
  const mail = smtp.received.filter((m) => m.to.includes(to) && subject.test(m.subject)).at(-1);
  if (!mail) throw new Error(`no e-mail to ${to} matching ${subject}`);
  const link = /https?:\/\/\S+\/verify-email\?token=\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no link in: ${mail.text}`);
  return { link, token: new URL(link).searchParams.get("token")!, mail };
}

let counter = 0;
async function register(email = `novo${++counter}.${Date.now()}@example.com`) {
  const res = await call(
    registerAction,
    jsonRequest("/api/register", {
      full_name: "Renata Nova",
      email,
      password: "segredo123",
      account_type: "merchant",
    }),
  );
  expect(res.status).toBe(201);
  const login = await call(loginAction, jsonRequest("/api/login", { email, password: "segredo123" }));
  return {
    id: res.body.data.user.id as string,
    email,
    token: login.body.access_token as string,
    user: res.body.data.user,
  };
}

const verify = (token: string, bearer?: string) =>
  call(verifyAction, jsonRequest("/api/verify-email", { token }, { token: bearer }));

describe("confirming the e-mail", () => {
  it("leaves a new account unconfirmed, e-mails a link from APP_URL, and the link confirms it once", async () => {
    const account = await register();
    expect(account.user.email_verified_at).toBeNull();
    const { link, token, mail } = await linkTo(account.email, /confirme seu e-mail/);
    expect(link.startsWith(`${config.APP_URL}/verify-email?token=`)).toBe(true);
    expect(mail.text).toContain("24 horas");
    expect(mail.headers["list-unsubscribe"]).toBeUndefined();

    const done = await verify(token);
    expect(done.status).toBe(200);
    expect(done.body.message).toBe("E-mail confirmado!");
    expect(done.body.user.email_verified_at).toEqual(expect.any(String));
    const profile = await call(profileLoader, jsonRequest("/api/profile", undefined, { token: account.token }));
    expect(profile.body.user.email_verified_at).toBe(done.body.user.email_verified_at);

    const again = await verify(token);
    expect(again.status).toBe(422);
    expect(again.body.message).toBe("Este link de confirmação já foi usado.");
    // The link left the outbox with the e-mail: nothing in the table can confirm an address.
    const rows = await db.selectFrom("outbox").select("payload").where("user_id", "=", account.id).execute();
    expect(rows.every((r) => r.payload === null)).toBe(true);
  });

  it("refuses an expired link, an unknown one and bad input with 422 and Portuguese", async () => {
    const account = await register();
    const { token } = await linkTo(account.email, /confirme seu e-mail/);
    await db
      .updateTable("email_tokens")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("user_id", "=", account.id)
      .execute();
    const expired = await verify(token);
    expect(expired.status).toBe(422);
    expect(expired.body.message).toBe("Este link de confirmação expirou. Peça outro.");
    expect((await verify("x".repeat(43))).body.message).toBe("Este link de confirmação é inválido.");
    for (const bad of [null, 42, "", "y".repeat(500)]) {
      const res = await call(verifyAction, jsonRequest("/api/verify-email", { token: bad }));
      expect(res.status).toBe(422);
    }
    const row = await db
      .selectFrom("users")
      .select("email_verified_at")
      .where("id", "=", account.id)
      .executeTakeFirstOrThrow();
    expect(row.email_verified_at).toBeNull();
  });

  it("refuses another account's link while signed in (403) and leaves it usable by its owner", async () => {
    const owner = await register();
    const other = await register();
    const { token } = await linkTo(owner.email, /confirme seu e-mail/);
    const refused = await verify(token, other.token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("Este link é de outra conta. Saia e abra o link de novo.");
    const users = await db
      .selectFrom("users")
      .select(["id", "email_verified_at"])
      .where("id", "in", [owner.id, other.id])
      .execute();
    expect(users.every((u) => u.email_verified_at === null)).toBe(true);
    expect((await verify(token, owner.token)).status).toBe(200);
  });

  it("one of two opens of the same link at once confirms it, the other finds it used", async () => {
    const account = await register();
    const { token } = await linkTo(account.email, /confirme seu e-mail/);
    const results = await Promise.all([verify(token), verify(token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
  });
});

describe("what an unconfirmed account may not do", () => {
  async function world() {
    const unconfirmedMerchant = await signedInUser({ account_type: "merchant", email_verified_at: null });
    const unconfirmedFreelancer = await signedInUser({ account_type: "freelancer", email_verified_at: null });
    const opportunity = await createOpportunity(db, {});
    const mine = await createOpportunity(db, { merchant_id: unconfirmedMerchant.user.id });
    const freelancer = await createUser(db, { account_type: "freelancer" });
    const application = await createApplication(db, { opportunity: mine, freelancer_id: freelancer.id });
    return { unconfirmedMerchant, unconfirmedFreelancer, opportunity, mine, freelancer, application };
  }
  const reason =
    "Confirme seu e-mail para publicar, se candidatar, enviar mensagens ou convidar: abra o link que enviamos ou peça outro.";

  it("is refused 403 with the reason on publishing, applying, messaging and inviting, and nothing is stored", async () => {
    const w = await world();
    const attempts = [
      call(
        createOpportunityAction,
        jsonRequest("/api/opportunities", validOpportunity, { token: w.unconfirmedMerchant.token }),
      ),
      call(
        applyAction,
        jsonRequest(`/api/opportunities/${w.opportunity.uuid}/applications`, validApplication, {
          token: w.unconfirmedFreelancer.token,
        }),
        { uuid: w.opportunity.uuid },
      ),
      call(
        messageAction,
        jsonRequest(
          `/api/applications/${w.application.id}/messages`,
          { body: "Olá!" },
          { token: w.unconfirmedMerchant.token },
        ),
        { id: w.application.id },
      ),
      call(
        inviteAction,
        jsonRequest(
          `/api/opportunities/${w.mine.uuid}/invitations`,
          { freelancer_id: w.freelancer.id, message: "Venha!" },
          { token: w.unconfirmedMerchant.token },
        ),
        { uuid: w.mine.uuid },
      ),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(reason);
    }
    expect(
      await db
        .selectFrom("opportunities")
        .select("id")
        .where("merchant_id", "=", w.unconfirmedMerchant.user.id)
        .execute(),
    ).toHaveLength(1);
    expect(
      await db
        .selectFrom("applications")
        .select("id")
        .where("freelancer_id", "=", w.unconfirmedFreelancer.user.id)
        .execute(),
    ).toHaveLength(0);
    expect(await db.selectFrom("messages").select("id").execute()).toHaveLength(0);
    expect(await db.selectFrom("invitations").select("id").execute()).toHaveLength(0);
  });

  it("may do all of it with EMAIL_VERIFICATION=off", async () => {
    config.EMAIL_VERIFICATION = "off";
    const w = await world();
    const created = await call(
      createOpportunityAction,
      jsonRequest("/api/opportunities", validOpportunity, { token: w.unconfirmedMerchant.token }),
    );
    expect(created.status).toBe(201);
    const applied = await call(
      applyAction,
      jsonRequest(`/api/opportunities/${w.opportunity.uuid}/applications`, validApplication, {
        token: w.unconfirmedFreelancer.token,
      }),
      { uuid: w.opportunity.uuid },
    );
    expect(applied.status).toBe(201);
    const sent = await call(
      messageAction,
      jsonRequest(
        `/api/applications/${w.application.id}/messages`,
        { body: "Olá!" },
        { token: w.unconfirmedMerchant.token },
      ),
      { id: w.application.id },
    );
    expect(sent.status).toBe(201);
  });

  it("registration sends no link with EMAIL_VERIFICATION=off", async () => {
    config.EMAIL_VERIFICATION = "off";
    const account = await register();
    expect(await db.selectFrom("email_tokens").select("id").where("user_id", "=", account.id).execute()).toEqual([]);
  });
});

describe("POST /api/verify-email/resend", () => {
  it("sends a new link (the old one stops working), 3 an hour, and 409 once confirmed", async () => {
    const account = await register();
    const first = await linkTo(account.email, /confirme seu e-mail/);
    const resent = await call(resendAction, jsonRequest("/api/verify-email/resend", {}, { token: account.token }));
    expect(resent.status).toBe(202);
    expect(resent.body.message).toBe("Enviamos um novo link de confirmação para o seu e-mail.");
    const second = await linkTo(account.email, /confirme seu e-mail/);
    expect(second.token).not.toBe(first.token);
    expect((await verify(first.token)).body.message).toBe("Este link de confirmação já foi usado.");

    for (let i = 0; i < 2; i++) {
      expect(
        (await call(resendAction, jsonRequest("/api/verify-email/resend", {}, { token: account.token }))).status,
      ).toBe(202);
    }
    const limited = await call(resendAction, jsonRequest("/api/verify-email/resend", {}, { token: account.token }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(limited.body.message).toMatch(/^Você já pediu vários e-mails de confirmação/);

    const latest = await linkTo(account.email, /confirme seu e-mail/);
    expect((await verify(latest.token)).status).toBe(200);
    const confirmed = await call(resendAction, jsonRequest("/api/verify-email/resend", {}, { token: account.token }));
    expect(confirmed.status).toBe(409);
    expect(confirmed.body.message).toBe("Seu e-mail já está confirmado.");
  });

  it("answers 401 without a session", async () => {
    expect((await call(resendAction, jsonRequest("/api/verify-email/resend", {}))).status).toBe(401);
  });
});

describe("POST /api/email (changing the address)", () => {
  it("confirms the new address before it takes effect, then tells the old one", async () => {
    const { user, token } = await signedInUser({ email: "antigo@example.com" });
    const wrong = await call(
      emailChangeAction,
      jsonRequest("/api/email", { email: "novo@example.com", password: "errada123" }, { token }),
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ password: "Senha atual incorreta." });

    const asked = await call(
      emailChangeAction,
      jsonRequest("/api/email", { email: "Novo@Example.com", password: user.password }, { token }),
    );
    expect(asked.status).toBe(202);
    expect(asked.body.message).toBe(
      "Enviamos um link para novo@example.com. Seu e-mail muda quando você abrir o link.",
    );
    // Nothing changes until the link is opened: the old address still signs in.
    expect(
      (await call(loginAction, jsonRequest("/api/login", { email: "antigo@example.com", password: user.password })))
        .status,
    ).toBe(200);
    const { token: link, mail } = await linkTo("novo@example.com", /confirme seu novo e-mail/);
    expect(mail.to).toEqual(["novo@example.com"]);

    const done = await verify(link, token);
    expect(done.status).toBe(200);
    expect(done.body.message).toBe("Pronto: seu e-mail agora é novo@example.com.");
    expect(done.body.user).toMatchObject({ email: "novo@example.com", email_verified_at: expect.any(String) });
    await drain();
    const told = smtp.received.filter((m) => m.to.includes("antigo@example.com"));
    expect(told.at(-1)?.subject).toBe("Freela: o e-mail da sua conta mudou");
    expect(told.at(-1)?.text).toContain("novo@example.com");
    expect(
      (await call(loginAction, jsonRequest("/api/login", { email: "novo@example.com", password: user.password })))
        .status,
    ).toBe(200);
    expect(
      (await call(loginAction, jsonRequest("/api/login", { email: "antigo@example.com", password: user.password })))
        .status,
    ).toBe(401);
  });

  it("refuses a taken address, the same address and bad input with 422; 409 when it was taken before the link was opened", async () => {
    const { user, token } = await signedInUser();
    const other = await createUser(db, { email: "ocupado@example.com" });
    const taken = await call(
      emailChangeAction,
      jsonRequest("/api/email", { email: other.email, password: user.password }, { token }),
    );
    expect(taken.status).toBe(422);
    expect(taken.body.errors).toEqual({ email: "Este e-mail já está cadastrado." });
    const same = await call(
      emailChangeAction,
      jsonRequest("/api/email", { email: user.email, password: user.password }, { token }),
    );
    expect(same.body.errors).toEqual({ email: "Este já é o seu e-mail." });
    const bad = await call(emailChangeAction, jsonRequest("/api/email", { email: "nope", password: 5 }, { token }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["email", "password"]);

    await call(
      emailChangeAction,
      jsonRequest("/api/email", { email: "disputado@example.com", password: user.password }, { token }),
    );
    const { token: link } = await linkTo("disputado@example.com", /confirme seu novo e-mail/);
    await createUser(db, { email: "disputado@example.com" });
    const late = await verify(link, token);
    expect(late.status).toBe(409);
    expect(late.body.message).toBe("Este e-mail já está cadastrado.");
    const row = await db.selectFrom("users").select("email").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.email).toBe(user.email);
  });
});
