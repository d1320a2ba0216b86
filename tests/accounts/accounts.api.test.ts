import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { action as loginAction } from "~/routes/api+/_auth+/login";
import { action as signinAction } from "~/routes/api+/_auth+/auth.signin";
import { action as logoutAction } from "~/routes/api+/_auth+/logout";
import { action as profileUpdate, loader as profileLoader } from "~/routes/api+/_account+/profile";
import { action as registerAction } from "~/routes/api+/_auth+/register";
import { call, jsonRequest, signedInUser } from "../support/helpers";

const valid = {
  full_name: "Fernanda Costa",
  display_name: "Fê",
  email: "fernanda@example.com",
  password: "segredo123",
  account_type: "freelancer",
};

describe("POST /api/register", () => {
  it("creates the account and never returns the password hash", async () => {
    const res = await call(registerAction, jsonRequest("/api/register", valid));
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    expect(res.body.message).toBe("Cadastro realizado com sucesso! Faça login.");
    expect(res.body.data.user).toMatchObject({
      email: "fernanda@example.com",
      account_type: "freelancer",
      user_type: "freelancer",
      type: "freelancer",
      role: "freelancer",
    });
    expect(JSON.stringify(res.body)).not.toContain("password");
  });

  it("refuses a duplicate e-mail in any letter case", async () => {
    await call(registerAction, jsonRequest("/api/register", { ...valid, email: "dup@example.com" }));
    const res = await call(registerAction, jsonRequest("/api/register", { ...valid, email: "DUP@Example.COM" }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, errors: { email: "Este e-mail já está cadastrado." } });
  });

  it("answers 422 with a Portuguese message per field", async () => {
    const res = await call(
      registerAction,
      jsonRequest("/api/register", { full_name: "A", email: "nope", password: "123", account_type: "admin" }),
    );
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(res.body.errors).toEqual({
      full_name: "O nome completo deve ter entre 3 e 120 caracteres.",
      email: "Informe um e-mail válido.",
      password: "A senha deve ter entre 8 e 72 caracteres.",
      account_type: "Escolha o tipo de conta: contratante ou freelancer.",
    });
  });

  it("answers 400 for malformed JSON and 415 for another content type", async () => {
    const malformed = await call(registerAction, jsonRequest("/api/register", "{nope"));
    expect(malformed.status).toBe(400);
    const wrongType = await call(
      registerAction,
      jsonRequest("/api/register", "a=b", { headers: { "Content-Type": "text/plain" } }),
    );
    expect(wrongType.status).toBe(415);
  });
});

describe("POST /api/login and /api/auth/signin", () => {
  it("returns a bearer token that opens the profile", async () => {
    const user = await createUser(db, { email: "login@example.com" });
    for (const handler of [loginAction, signinAction]) {
      const res = await call(
        handler,
        jsonRequest("/api/login", { email: "LOGIN@example.com", password: user.password }),
      );
      expect(res.status).toBe(200);
      expect(res.body.token_type).toBe("Bearer");
      expect(res.body.access_token).toMatch(/^[\w-]{40,}$/);
      expect(res.body.user.id).toBe(user.id);
      const profile = await call(
        profileLoader,
        jsonRequest("/api/profile", undefined, { token: res.body.access_token }),
      );
      expect(profile.status).toBe(200);
      expect(profile.body.user.email).toBe("login@example.com");
    }
  });

  it("answers 401 for a wrong password or an unknown e-mail, with the same message", async () => {
    await createUser(db, { email: "wrong@example.com" });
    const wrong = await call(
      loginAction,
      jsonRequest("/api/login", { email: "wrong@example.com", password: "errada123" }),
    );
    const unknown = await call(
      loginAction,
      jsonRequest("/api/login", { email: "ghost@example.com", password: "errada123" }),
    );
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ message: "E-mail ou senha inválidos." });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("answers 429 with Retry-After after repeated failures for one e-mail", async () => {
    await createUser(db, { email: "brute@example.com" });
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await call(
        loginAction,
        jsonRequest("/api/login", { email: "brute@example.com", password: `x${i}xxxxxxx` }),
      );
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429]);
    expect(Number(last!.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(last!.body.message).toMatch(/Muitas tentativas/);
  });
});

describe("sessions", () => {
  it("logout revokes the token everywhere", async () => {
    const { token } = await signedInUser();
    const out = await call(logoutAction, jsonRequest("/api/logout", {}, { token }));
    expect(out.status).toBe(200);
    const after = await call(profileLoader, jsonRequest("/api/profile", undefined, { token }));
    expect(after.status).toBe(401);
    expect(after.body.message).toBe("Token expirado. Faça login novamente.");
  });

  it("an expired session is refused", async () => {
    const { token } = await signedInUser();
    await db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const res = await call(profileLoader, jsonRequest("/api/profile", undefined, { token }));
    expect(res.status).toBe(401);
  });

  it("profile update without a token names the missing token", async () => {
    const form = new FormData();
    form.set("full_name", "Sem Token");
    const res = await call(profileUpdate, new Request("http://localhost/api/profile", { method: "POST", body: form }));
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Token de autenticação não encontrado. Faça login novamente.");
  });
});
