import { describe, expect, it } from "vitest";
import * as securityPage from "~/routes/_account+/account.security";
import { action as optionsAction } from "~/routes/api+/_account+/passkeys.options";
import { action as addAction } from "~/routes/api+/_account+/passkeys._index";
import { relyingParty } from "~/services/accounts/passkeys.server";
import { DEFAULT_PASSWORD } from "../../db/factories";
import { softAuthenticator } from "../support/authenticator";
import { get, postForm, toastOf } from "../operator/support";
import { call, jsonRequest, signedInUser } from "../support/helpers";

// The security page's passkey list as a browser without JavaScript uses it, on both engines:
// adding one needs the page's script (the page says so: tests/e2e/accounts.spec.ts's story
// without JavaScript), but one added elsewhere is listed and removed by a plain form.

describe("passkeys on the security page without JavaScript", () => {
  it("lists a passkey added through the API and removes it by its form", async () => {
    const { token } = await signedInUser();
    const options = await call(
      optionsAction,
      jsonRequest("/api/passkeys/options", { password: DEFAULT_PASSWORD }, { token }),
    );
    expect(options.status).toBe(200);
    const { response } = softAuthenticator(relyingParty()).register(options.body.options);
    const added = await call(addAction, jsonRequest("/api/passkeys", { response, name: "Chave da API" }, { token }));
    expect(added.status).toBe(201);
    const listed = (await get(securityPage, "/account/security", token)).body.passkeys;
    expect(listed).toMatchObject([{ id: added.body.data.id, name: "Chave da API" }]);

    const removed = await postForm(securityPage, "/account/security", token, {
      intent: "passkey_remove",
      passkey: added.body.data.id,
    });
    expect(removed.status).toBe(302);
    expect(removed.headers.get("Location")).toBe("/account/security#passkeys");
    expect(await toastOf(removed)).toBe("Chave de acesso removida.");
    expect((await get(securityPage, "/account/security", token)).body.passkeys).toEqual([]);
  });
});
