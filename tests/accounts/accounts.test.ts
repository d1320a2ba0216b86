import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { createUser } from "../../db/factories";
import { AppError } from "~/services/platform/errors.server";
import {
  findValidReset,
  login,
  requestPasswordReset,
  resetPassword,
  updateProfile,
} from "~/services/accounts/accounts.server";
import { createSession, findSessionUser } from "~/services/accounts/sessions.server";
import { PNG_1X1 } from "../support/fixtures";
import { mailsTo } from "../support/helpers";

/** A client without a known address (no trusted proxy). */
const client = { ip: null };

/** Asks for a reset link and reads it from the e-mail the outbox sends. */
async function captureResetLink(email: string) {
  await requestPasswordReset(email);
  const text = (await mailsTo(email)).map((m) => m.text).join("\n");
  return text.match(/reset-password\?token=([\w%-]+)/)?.[1];
}

describe("password reset", () => {
  it("sets the new password, spends the token and ends every session", async () => {
    const user = await createUser(db, { email: "reset@example.com" });
    const a = await createSession(user.id);
    const b = await createSession(user.id);
    const token = decodeURIComponent((await captureResetLink("reset@example.com"))!);
    expect(token).toBeTruthy();
    expect(await findValidReset(token)).toBeTruthy();

    await resetPassword({ token, password: "nova-senha-123" });
    const told = await db
      .selectFrom("outbox")
      .select("kind")
      .where("user_id", "=", user.id)
      .where("kind", "=", "password_changed")
      .execute();
    expect(told).toHaveLength(1);
    expect(await findSessionUser(a.token)).toBeNull();
    expect(await findSessionUser(b.token)).toBeNull();
    await expect(login({ email: "reset@example.com", password: user.password }, client)).rejects.toMatchObject({
      status: 401,
    });
    const ok = await login({ email: "reset@example.com", password: "nova-senha-123" }, client);
    expect(ok.user.id).toBe(user.id);

    // The token works once.
    await expect(resetPassword({ token, password: "outra-senha-123" })).rejects.toMatchObject({
      status: 422,
      fieldErrors: { token: "reset_invalid" },
    });
  });

  it("says nothing about unknown e-mails and refuses expired tokens", async () => {
    expect(await captureResetLink("ninguem@example.com")).toBeUndefined();
    await createUser(db, { email: "late@example.com" });
    const token = decodeURIComponent((await captureResetLink("late@example.com"))!);
    await db
      .updateTable("password_resets")
      .set({ expires_at: new Date(Date.now() - 1).toISOString() })
      .execute();
    await expect(resetPassword({ token, password: "nova-senha-123" })).rejects.toBeInstanceOf(AppError);
  });
});

describe("sessions", () => {
  it("each login opens a new session with its own token", async () => {
    const user = await createUser(db, { email: "twice@example.com" });
    const first = await login({ email: user.email, password: user.password }, client);
    const second = await login({ email: user.email, password: user.password }, client);
    expect(first.token).not.toBe(second.token);
    const stored = await db.selectFrom("sessions").select("id").where("user_id", "=", user.id).execute();
    expect(stored).toHaveLength(2);
    // Only hashes are stored.
    expect(stored.map((s) => s.id)).not.toContain(first.token);
  });
});

describe("profile", () => {
  it("stores a real image and refuses other content whatever its declared type", async () => {
    const user = await createUser(db);
    const updated = await updateProfile(
      user,
      { full_name: "Com Foto", skills: "React, Node" },
      new Blob([PNG_1X1], { type: "image/png" }),
    );
    expect(updated.photo_path).toMatch(/^[0-9a-f-]{36}\.png$/);
    expect(JSON.parse(updated.skills)).toEqual(["React", "Node"]);

    await expect(
      updateProfile(user, { full_name: "Com Foto" }, new Blob(["<svg onload=alert(1)>"], { type: "image/png" })),
    ).rejects.toMatchObject({ status: 422, fieldErrors: { photo: "photo_invalid_type" } });
    await expect(
      updateProfile(
        user,
        { full_name: "Com Foto" },
        new Blob([new Uint8Array(2 * 1024 * 1024 + 1)], { type: "image/png" }),
      ),
    ).rejects.toMatchObject({ status: 413 });
    // A refused field and a refused photo: both in one answer.
    await expect(
      updateProfile(user, { bio: "z".repeat(1001) }, new Blob(["<svg onload=alert(1)>"], { type: "image/png" })),
    ).rejects.toMatchObject({ status: 422, fieldErrors: { bio: "bio_length", photo: "photo_invalid_type" } });
  });

  it("checks every field's bounds", async () => {
    const user = await createUser(db);
    await expect(
      updateProfile(user, {
        full_name: "x".repeat(121),
        display_name: "y",
        bio: "z".repeat(1001),
        skills: Array.from({ length: 16 }, (_, i) => `skill${i}`).join(","),
      }),
    ).rejects.toMatchObject({
      status: 422,
      key: "profile_update_failed",
      fieldErrors: {
        full_name: "full_name_length",
        display_name: "display_name_length",
        bio: "bio_length",
        skills: "skills_invalid",
      },
    });
  });
});
