import { describe, expect, it } from "vitest";
import * as securityPage from "~/routes/_account+/account.security";
import * as verifyPage from "~/routes/_auth+/verify-email";
import * as createPage from "~/routes/opportunities+/create";
import { get, postForm, toastOf } from "../operator/support";
import { mailsTo, signedInUser } from "../support/helpers";

// Verified e-mail's page forms as a browser without JavaScript posts them (the form's own fields,
// url-encoded), on both engines: a write refused with the reason and what was typed kept, "Reenviar
// e-mail" back where it was sent from, the link confirming once, and changing the address on
// /account/security. The browser story (tests/e2e/verification.spec.ts) runs with JavaScript.

const linkOf = (text: string) => new URL(text.match(/https?:\/\/\S+\/verify-email\S*/)![0]);

describe("verified e-mail's page forms without JavaScript", () => {
  it("an unconfirmed account is refused a write, resends and confirms by the link once", async () => {
    const { user, token } = await signedInUser({ account_type: "merchant", email_verified_at: null });
    const refused = await postForm(createPage, "/opportunities/create", token, {
      title: "Site para uma padaria de bairro",
      description: "Um site simples com cardápio, horários e encomendas pelo WhatsApp para a padaria.",
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(
      /^Confirme seu e-mail para publicar, se candidatar, enviar mensagens ou convidar/,
    );
    expect(refused.body.values.title).toBe("Site para uma padaria de bairro");

    const sent = await postForm(verifyPage, "/verify-email", token, { redirectTo: "/opportunities/create" });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("Location")).toBe("/opportunities/create");
    expect(await toastOf(sent)).toBe("Enviamos um novo link de confirmação para o seu e-mail.");
    const mail = (await mailsTo(user.email)).filter((m) => /confirme seu e-mail/.test(m.subject)).at(-1)!;
    const link = linkOf(mail.text);

    const path = `${link.pathname}${link.search}`;
    const confirmed = await get(verifyPage, path, token);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/primeiros-passos");
    expect(await toastOf(confirmed)).toBe("E-mail confirmado!");
    expect((await get(securityPage, "/account/security", token)).body.verifiedAt).toBeTruthy();
    const again = await get(verifyPage, path, token);
    expect(again.body.failure).toBe("Este link de confirmação já foi usado.");
  });

  it("changing the address: refused with the typed address kept, then confirmed by the link sent to it", async () => {
    const { user, token } = await signedInUser({ account_type: "freelancer", password: "segredo123" });
    const next = `trocado.${Date.now()}@example.com`;
    const change = (password: string) =>
      postForm(securityPage, "/account/security", token, { intent: "email", email: next, password });
    const wrong = await change("senha-errada");
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.password).toBe("Senha atual incorreta.");
    expect(wrong.body.values).toMatchObject({ intent: "email", email: next });

    const done = await change("segredo123");
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/account/security#email");
    expect(await toastOf(done)).toBe(`Enviamos um link para ${next}. Seu e-mail muda quando você abrir o link.`);
    expect((await get(securityPage, "/account/security", token)).body.email).toBe(user.email);

    const link = linkOf((await mailsTo(next)).find((m) => /confirme seu novo e-mail/.test(m.subject))!.text);
    const confirmed = await get(verifyPage, `${link.pathname}${link.search}`, token);
    expect(confirmed.headers.get("Location")).toBe("/account/security");
    expect(await toastOf(confirmed)).toBe(`Pronto: seu e-mail agora é ${next}.`);
    expect((await get(securityPage, "/account/security", token)).body.email).toBe(next);
    const told = (await mailsTo(user.email)).find((m) => /o e-mail da sua conta mudou/.test(m.subject))!;
    expect(told.text).toContain(next);
  });
});
