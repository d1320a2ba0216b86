import { describe, expect, it } from "vitest";
import { db } from "../../db";
import { action as profileUpdate } from "~/routes/api+/_account+/profile";
import { action as settingsAction } from "~/routes/_account+/pages.profile-setting";
import { createSession } from "~/services/accounts/sessions.server";
import { sessionCookie } from "~/web/session.server";
import { call, signedInUser, BASE } from "../support/helpers";

const PNG_1X1 = Buffer.from(
  "89504e470d0a1a0a0000000d4948445200000001000000010806000000" +
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);

function apiPost(token: string, fields: Record<string, string | Blob>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return new Request(`${BASE}/api/profile`, {
    method: "POST",
    body: form,
    headers: { Authorization: `Bearer ${token}` },
  });
}

const stored = (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

async function freelancerWithProfile() {
  return signedInUser({
    account_type: "freelancer",
    full_name: "Ana Souza",
    display_name: "Ana",
    bio: "Desenvolvedora React.",
    skills: ["React", "Node"],
    city: "Recife",
  });
}

describe("POST /api/profile is a partial update", () => {
  it("only the bio: every other field stays", async () => {
    const { user, token } = await freelancerWithProfile();
    const res = await call(profileUpdate, apiPost(token, { bio: "Agora faço Vue também." }));
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      full_name: "Ana Souza",
      display_name: "Ana",
      bio: "Agora faço Vue também.",
      skills: ["React", "Node"],
      city: "Recife",
      remote: true,
    });
    const row = await stored(user.id);
    expect(row.search_text).toContain(" vue ");
    expect(row.search_text).toContain(" react ");
  });

  it("only a photo: the text fields stay", async () => {
    const { token } = await freelancerWithProfile();
    const res = await call(profileUpdate, apiPost(token, { photo: new Blob([PNG_1X1], { type: "image/png" }) }));
    expect(res.status).toBe(200);
    expect(res.body.user.photo_url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    expect(res.body.user).toMatchObject({
      full_name: "Ana Souza",
      bio: "Desenvolvedora React.",
      skills: ["React", "Node"],
    });
  });

  it("a field sent empty is cleared; the full name cannot be", async () => {
    const { token } = await freelancerWithProfile();
    const cleared = await call(profileUpdate, apiPost(token, { display_name: "", bio: "", skills: "", city: "" }));
    expect(cleared.status).toBe(200);
    expect(cleared.body.user).toMatchObject({
      display_name: null,
      bio: "",
      skills: [],
      city: null,
      full_name: "Ana Souza",
    });
    const refused = await call(profileUpdate, apiPost(token, { full_name: "" }));
    expect(refused.status).toBe(422);
    expect(refused.body.errors.full_name).toBe("O nome completo deve ter entre 3 e 120 caracteres.");
  });

  it("city and remote are checked", async () => {
    const { token } = await freelancerWithProfile();
    const res = await call(profileUpdate, apiPost(token, { city: "x".repeat(81), remote: "talvez" }));
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors).sort()).toEqual(["city", "remote"]);
    const ok = await call(profileUpdate, apiPost(token, { city: "São Paulo", remote: "0" }));
    expect(ok.body.user).toMatchObject({ city: "São Paulo", remote: false });
  });
});

describe("the settings page", () => {
  async function pagePost(userId: string, fields: [string, string][]) {
    const { token } = await createSession(userId);
    const cookie = await sessionCookie.serialize(token);
    const body = new URLSearchParams(fields);
    return settingsAction({
      request: new Request(`${BASE}/pages/profile-setting`, {
        method: "POST",
        body,
        headers: { Cookie: cookie.split(";")[0], "Content-Type": "application/x-www-form-urlencoded", Origin: BASE },
      }),
      params: {},
      context: {},
    });
  }

  it("clears what the user emptied and reads the unticked remote box as no", async () => {
    const { user } = await freelancerWithProfile();
    const res = await pagePost(user.id, [
      ["full_name", "Ana Souza"],
      ["display_name", ""],
      ["bio", ""],
      ["skills", ""],
      ["city", ""],
      ["remote", "0"],
    ]);
    expect(res.status).toBe(302);
    const row = await stored(user.id);
    expect(row).toMatchObject({ display_name: null, bio: "", skills: "[]", city: null, remote: 0 });
    await pagePost(user.id, [
      ["full_name", "Ana Souza"],
      ["remote", "0"],
      ["remote", "1"],
    ]);
    expect((await stored(user.id)).remote).toBe(1);
  });
});
