import { readdirSync } from "node:fs";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { db, engine } from "../../db";
import { createUser } from "../../db/factories";
import { login, registerUser, resetPassword } from "~/services/accounts/accounts.server";
import { findSessionUser } from "~/services/accounts/sessions.server";
import { commandLineActor, listAuditLog, operatorActor, recordAudit } from "~/services/operator/audit.server";
import { createOperator, removeOperator } from "~/services/operator/operators.server";
import { transaction } from "../../db";
import * as adminLayout from "~/routes/admin+/_layout";
import * as adminIndex from "~/routes/admin+/_index";
import * as auditPage from "~/routes/admin+/audit";
import * as auditApi from "~/routes/api+/admin+/audit";
import * as opportunitiesApi from "~/routes/api+/opportunities+/_index";
import * as opportunitiesPage from "~/routes/opportunities+/_index";
import { call, jsonRequest, signedInUser } from "../support/helpers";
import { auditCount, auditRows, get, post, signedInOperator } from "./support";

describe("operator accounts", () => {
  it("are a role of their own the database accepts, and nobody picks at registration", async () => {
    await expect(createUser(db, { account_type: "admin" as never })).rejects.toThrow();
    const operator = await createUser(db, { account_type: "operator" });
    expect(operator.account_type).toBe("operator");
    await expect(
      registerUser({
        full_name: "Quero Ser Operador",
        email: "quero@example.com",
        password: "segredo123",
        account_type: "operator",
      }),
    ).rejects.toMatchObject({ status: 422, fieldErrors: { account_type: "account_type_invalid" } });
  });

  it("operator:create makes the account with a one-time link from APP_URL that sets its password", async () => {
    const before = await auditCount();
    const { user, link, created } = await createOperator({ email: "Olga@Freela.dev", name: "Olga Operadora" });
    expect(created).toBe(true);
    expect(user.email).toBe("olga@freela.dev");
    expect(link.startsWith(`${config.APP_URL}/reset-password?token=`)).toBe(true);
    // No password works until the link is used.
    await expect(login({ email: "olga@freela.dev", password: "" })).rejects.toMatchObject({ status: 422 });
    const token = new URL(link).searchParams.get("token")!;
    await resetPassword({ token, password: "senha-do-console-1" });
    const signedIn = await login({ email: "olga@freela.dev", password: "senha-do-console-1" });
    expect(signedIn.user.account_type).toBe("operator");
    // The link reached her address: it is confirmed.
    expect(signedIn.user.email_verified_at).toEqual(expect.any(String));
    // The link is spent.
    await expect(resetPassword({ token, password: "outra-senha-123" })).rejects.toMatchObject({ status: 422 });

    // Again for the same operator: a new link, not a new account.
    const again = await createOperator({ email: "olga@freela.dev", name: "Olga Operadora" });
    expect(again.created).toBe(false);
    expect(again.user.id).toBe(user.id);
    const rows = (await auditRows()).slice(before);
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => [r.action, r.target_id, r.actor_id])).toEqual([
      ["operator.create", user.id, null],
      ["operator.create", user.id, null],
    ]);
    expect(rows[0]!.actor_name).toBe(commandLineActor().name);
    expect(JSON.parse(rows[0]!.after!)).toMatchObject({ email: "olga@freela.dev", account_type: "operator" });
  });

  it("refuses an e-mail of a merchant or freelancer, and bad input, writing nothing", async () => {
    const merchant = await createUser(db, { account_type: "merchant" });
    const before = await auditCount();
    await expect(createOperator({ email: merchant.email, name: "Outra Pessoa" })).rejects.toMatchObject({
      status: 409,
      key: "operator_email_taken",
    });
    await expect(createOperator({ email: "nope", name: "O" })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { email: "email_invalid", name: "full_name_length" },
    });
    expect(await auditCount()).toBe(before);
    const still = await db.selectFrom("users").select("account_type").where("id", "=", merchant.id).executeTakeFirst();
    expect(still?.account_type).toBe("merchant");
  });

  it("operator:remove ends the account and its sessions; the log keeps who they were", async () => {
    const { user, token } = await signedInOperator("Rui Removido");
    const before = await auditCount();
    await removeOperator({ email: user.email });
    expect(await findSessionUser(token)).toBeNull();
    expect(await db.selectFrom("users").select("id").where("id", "=", user.id).executeTakeFirst()).toBeUndefined();
    const [row] = (await auditRows()).slice(before);
    expect(row).toMatchObject({ action: "operator.remove", target_type: "user", target_id: user.id });
    expect(JSON.parse(row!.before!)).toMatchObject({ email: user.email, name: "Rui Removido" });
    await expect(removeOperator({ email: user.email })).rejects.toMatchObject({ status: 404 });
    // A merchant is no operator to remove.
    const merchant = await createUser(db, { account_type: "merchant" });
    await expect(removeOperator({ email: merchant.email })).rejects.toMatchObject({ status: 404 });
  });
});

describe("the audit log is append-only", () => {
  it("the database refuses to update or delete its rows, whoever asks", async () => {
    const { user } = await signedInOperator();
    const row = await transaction((trx) =>
      recordAudit(trx, operatorActor(user), { action: "user.warn", target_type: "user", target_id: user.id }),
    );
    await expect(
      db.updateTable("audit_log").set({ reason: "apagado" }).where("id", "=", row.id).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom("audit_log").where("id", "=", row.id).execute()).rejects.toThrow(/append-only/);
    if (engine === "postgres") await expect(sql`TRUNCATE audit_log`.execute(db)).rejects.toThrow(/append-only/);
    const kept = await db.selectFrom("audit_log").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
    expect(kept.reason).toBeNull();
  });

  it("an insert on an existing id cannot rewrite a row (SQLite's REPLACE, PostgreSQL's upsert)", async () => {
    const { user } = await signedInOperator();
    const row = await transaction((trx) =>
      recordAudit(trx, operatorActor(user), { action: "user.warn", target_type: "user", target_id: user.id }),
    );
    const rewrite =
      engine === "postgres"
        ? sql`INSERT INTO audit_log SELECT * FROM audit_log WHERE id = ${row.id}
            ON CONFLICT (id) DO UPDATE SET reason = 'reescrito'`
        : sql`REPLACE INTO audit_log (id, created_at, actor_name, action, target_type, target_id, reason)
            SELECT id, created_at, actor_name, action, target_type, target_id, 'reescrito' FROM audit_log
            WHERE id = ${row.id}`;
    await expect(rewrite.execute(db)).rejects.toThrow(/append-only/);
    if (engine === "sqlite") {
      await expect(
        sql`INSERT OR REPLACE INTO audit_log SELECT * FROM audit_log WHERE id = ${row.id}`.execute(db),
      ).rejects.toThrow(/append-only/);
    }
    const kept = await db.selectFrom("audit_log").selectAll().where("id", "=", row.id).execute();
    expect(kept.map((r) => r.reason)).toEqual([null]);
  });

  it("an action that fails writes no row: the row is in the action's transaction", async () => {
    const { user } = await signedInOperator();
    const before = await auditCount();
    await expect(
      transaction(async (trx) => {
        await recordAudit(trx, operatorActor(user), { action: "user.warn", target_type: "user", target_id: user.id });
        throw new Error("the action failed after writing its row");
      }),
    ).rejects.toThrow();
    expect(await auditCount()).toBe(before);
  });
});

describe("the console's doors", () => {
  it("pages: visitors go to the login, merchants and freelancers get 404, operators get in", async () => {
    const merchant = await signedInUser({ account_type: "merchant" });
    const freelancer = await signedInUser({ account_type: "freelancer" });
    const operator = await signedInOperator();
    for (const [route, path] of [
      [adminLayout, "/admin"],
      [adminIndex, "/admin"],
      [auditPage, "/admin/audit"],
    ] as const) {
      const visitor = await get(route, `${path}?page=1`);
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("Location")).toBe(`/login?redirectFrom=${encodeURIComponent(`${path}?page=1`)}`);
      expect((await get(route, path, merchant.token)).status).toBe(404);
      expect((await get(route, path, freelancer.token)).status).toBe(404);
      expect((await get(route, path, operator.token)).status).toBe(200);
    }
  });

  it("API: 401 without a session, 404 for merchants and freelancers, 405 for other methods", async () => {
    const merchant = await signedInUser({ account_type: "merchant" });
    const freelancer = await signedInUser({ account_type: "freelancer" });
    const operator = await signedInOperator();
    expect((await get(auditApi, "/api/admin/audit")).status).toBe(401);
    for (const who of [merchant, freelancer]) {
      const res = await get(auditApi, "/api/admin/audit", who.token);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("Recurso não encontrado.");
    }
    expect((await get(auditApi, "/api/admin/audit", operator.token)).status).toBe(200);
    expect((await post(auditApi, "/api/admin/audit", operator.token, {})).status).toBe(405);
  });

  it("API: an undeclared method gets the same 401 or 404 as a declared one, on every console route", async () => {
    const merchant = await signedInUser({ account_type: "merchant" });
    const freelancer = await signedInUser({ account_type: "freelancer" });
    const folder = new URL("../../app/routes/api+/admin+/", import.meta.url);
    const files = readdirSync(folder).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(15);
    for (const file of files) {
      const route = (await import(new URL(file, folder).pathname)) as { loader: any; action: any };
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        const ask = (token?: string) =>
          call(
            method === "GET" ? route.loader : route.action,
            jsonRequest("/api/admin/x", method === "GET" ? undefined : {}, { method, token }),
          );
        expect([file, method, (await ask()).status]).toEqual([file, method, 401]);
        for (const who of [merchant, freelancer]) {
          expect([file, method, (await ask(who.token)).status]).toEqual([file, method, 404]);
        }
      }
    }
    const operator = await signedInOperator();
    const put = await call(
      auditApi.action,
      jsonRequest("/api/admin/audit", {}, { method: "PUT", token: operator.token }),
    );
    expect(put.status).toBe(405);
  });

  it("operators stay out of the marketplace: its API answers 403 and its pages send them to /admin", async () => {
    const operator = await signedInOperator();
    const api = await get(opportunitiesApi, "/api/opportunities", operator.token);
    expect(api.status).toBe(403);
    expect(api.body.message).toBe("Contas de operador usam apenas o console (/admin e /api/admin).");
    const page = await get(opportunitiesPage, "/opportunities", operator.token);
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/admin");
  });
});

describe("listing the audit log", () => {
  it("newest first, filtered by action, operator, target and São Paulo dates", async () => {
    const a = await signedInOperator("Ana Operadora");
    const b = await signedInOperator("Bia Operadora");
    const target = crypto.randomUUID();
    const write = (who: typeof a.user | null, action: "user.warn" | "user.ban", at: string) =>
      transaction((trx) =>
        recordAudit(
          trx,
          who ? operatorActor(who) : commandLineActor(),
          { action, target_type: "user", target_id: target, reason: "motivo", before: { x: 1 }, after: { x: 2 } },
          at,
        ),
      );
    await write(a.user, "user.warn", "2026-03-01T12:00:00.000Z");
    await write(b.user, "user.ban", "2026-03-02T02:59:00.000Z"); // 1 March, 23:59 in São Paulo
    await write(null, "user.warn", "2026-03-02T03:00:00.000Z"); // 2 March, 00:00 in São Paulo

    const all = await listAuditLog({ target_id: target });
    expect(all.data.map((r) => r.created_at)).toEqual([
      "2026-03-02T03:00:00.000Z",
      "2026-03-02T02:59:00.000Z",
      "2026-03-01T12:00:00.000Z",
    ]);
    expect(all.data[1]).toMatchObject({
      actor: { id: b.user.id, name: `Bia Operadora <${b.user.email}>` },
      action: "user.ban",
      target: { type: "user", id: target },
      reason: "motivo",
      before: { x: 1 },
      after: { x: 2 },
    });
    expect(all.meta.total).toBe(3);
    expect((await listAuditLog({ target_id: target, action: "user.warn" })).meta.total).toBe(2);
    expect((await listAuditLog({ target_id: target, actor: "cli" })).data.map((r) => r.actor.id)).toEqual([null]);
    expect((await listAuditLog({ target_id: target, actor: a.user.id })).meta.total).toBe(1);
    expect((await listAuditLog({ target_id: target, from: "2026-03-01", to: "2026-03-01" })).meta.total).toBe(2);
    expect((await listAuditLog({ target_id: target, from: "2026-03-02" })).meta.total).toBe(1);
    expect(all.operators.map((o) => o.id)).toEqual(expect.arrayContaining([a.user.id, b.user.id]));
  });

  it("bad filters: 422 with a Portuguese message per field on the API; the page drops them and says why", async () => {
    const operator = await signedInOperator();
    const res = await get(auditApi, "/api/admin/audit?action=drop&from=2026-02-30&actor=x", operator.token);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({
      action: "Ação desconhecida.",
      actor: "Operador inválido.",
      from: "Data inválida (use AAAA-MM-DD).",
    });
    const page = await get(auditPage, "/admin/audit?action=drop&to=2026-01-01", operator.token);
    expect(page.status).toBe(200);
    expect(page.body.errors).toEqual({ action: "Ação desconhecida." });
    expect(page.body.filters).toMatchObject({ to: "2026-01-01" });
  });
});
