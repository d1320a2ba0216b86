import { describe, expect, it } from "vitest";
import * as loginPage from "~/routes/_auth+/login";
import * as profileSetting from "~/routes/_account+/pages.profile-setting";
import { getPublicProfile } from "~/services/discovery/public.server";
import { db } from "../../db";
import { createOpportunity, createUser, DEFAULT_PASSWORD } from "../../db/factories";
import { BASE, call, signedInUser } from "../support/helpers";
import { postForm, toastOf } from "../operator/support";

// The public pages' ways on as a browser without JavaScript takes them, on both engines: the
// login form sent from a shared link comes back to that link, and the profile setting's box,
// unticked (its hidden "0" alone is sent), hides the public profile, ticked shows it again. The
// browser story (tests/e2e/public-pages.spec.ts) runs with JavaScript.

/** The profile form as the browser sends it: multipart, the box's hidden "0" and, ticked, its "1". */
function profileForm(token: string, fields: Record<string, string>, ticked: boolean) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("public_profile", "0");
  if (ticked) form.append("public_profile", "1");
  return new Request(`${BASE}/pages/profile-setting`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
}

describe("the public pages without JavaScript", () => {
  it("signing in from a shared opportunity comes back to it", async () => {
    const user = await createUser(db, { account_type: "freelancer" });
    const opp = await createOpportunity(db, {});
    const here = `/vagas/${opp.uuid}`;
    const answer = await postForm(loginPage, `/login?redirectFrom=${encodeURIComponent(here)}`, undefined, {
      email: user.email,
      password: DEFAULT_PASSWORD,
      redirectFrom: here,
    });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe(here);
    expect(answer.headers.getSetCookie().some((c) => c.startsWith("freela_session="))).toBe(true);
  });

  it("the profile setting's box, unticked, hides the public profile; ticked, shows it", async () => {
    const { user, token } = await signedInUser({ account_type: "freelancer", full_name: "Bia Fotógrafa" });
    const fields = { full_name: "Bia Fotógrafa", bio: "Fotógrafa de gastronomia.", skills: "Fotografia" };
    expect((await getPublicProfile(user.id)).path).toContain(user.id);
    const hidden = await call(profileSetting.action, profileForm(token, fields, false));
    expect(hidden.status).toBe(302);
    expect(hidden.headers.get("Location")).toBe("/profile");
    expect(await toastOf(hidden)).toBeTruthy();
    await expect(getPublicProfile(user.id)).rejects.toMatchObject({ status: 404 });
    const shown = await call(profileSetting.action, profileForm(token, fields, true));
    expect(shown.status).toBe(302);
    expect((await getPublicProfile(user.id)).path).toContain(user.id);
  });
});
