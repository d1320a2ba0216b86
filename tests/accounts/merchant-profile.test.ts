import { describe, expect, it } from "vitest";
import { db } from "../../db";
import * as settingsPage from "~/routes/_account+/pages.profile-setting";
import * as merchantPage from "~/routes/_profiles+/merchants.$id";
import * as profileApi from "~/routes/api+/_account+/profile";
import { collectPersonalData } from "~/services/accounts/data-export.server";
import { deleteAccount } from "~/services/accounts/deletion.server";
import { signedInUser } from "../support/helpers";
import { get, postForm } from "../operator/support";

// A merchant's profile: their company (name and CNPJ, both optional) instead of a freelancer's
// skills and remote work. The name is public; the CNPJ only their own (and their receipts').

const FORM = { full_name: "Marta Lojista", display_name: "", bio: "Compro design.", city: "Recife" };
const company = (id: string) =>
  db.selectFrom("users").select(["company_name", "company_cnpj"]).where("id", "=", id).executeTakeFirstOrThrow();

describe("a merchant's company on the profile", () => {
  it("refuses a CNPJ with wrong check digits, in Portuguese, keeping what was typed (no JavaScript)", async () => {
    const { user, token } = await signedInUser({ account_type: "merchant" });
    const refused = await postForm(settingsPage, "/pages/profile-setting", token, {
      ...FORM,
      company_name: "Marta Design Ltda",
      company_cnpj: "11.222.333/0001-82",
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.company_cnpj).toBe(
      "CNPJ inválido: confira os 14 números (os dois últimos são dígitos verificadores). Deixe em branco se não tiver.",
    );
    expect(refused.body.values).toMatchObject({
      company_name: "Marta Design Ltda",
      company_cnpj: "11.222.333/0001-82",
    });
    expect(await company(user.id)).toEqual({ company_name: null, company_cnpj: null });
  });

  it("keeps the CNPJ's 14 digits, shows the company's name to others and never its CNPJ", async () => {
    const { user, token } = await signedInUser({ account_type: "merchant" });
    const saved = await postForm(settingsPage, "/pages/profile-setting", token, {
      ...FORM,
      company_name: "Marta Design Ltda",
      company_cnpj: "11.222.333/0001-81",
    });
    expect(saved.status).toBe(302);
    expect(await company(user.id)).toEqual({ company_name: "Marta Design Ltda", company_cnpj: "11222333000181" });
    expect((await get(profileApi, "/api/profile", token)).body.user).toMatchObject({
      company_name: "Marta Design Ltda",
      company_cnpj: "11222333000181",
    });

    const other = await signedInUser({ account_type: "freelancer" });
    const page = await get(merchantPage, `/merchants/${user.id}`, other.token, { id: user.id });
    expect(page.status).toBe(200);
    expect(page.body.profile.company_name).toBe("Marta Design Ltda");
    expect(JSON.stringify(page.body)).not.toContain("11222333000181");

    // Both optional: sent empty, they are cleared.
    await postForm(settingsPage, "/pages/profile-setting", token, { ...FORM, company_name: "", company_cnpj: "" });
    expect(await company(user.id)).toEqual({ company_name: null, company_cnpj: null });
  });

  it("is a merchant's only: a freelancer's company fields are ignored", async () => {
    const { user, token } = await signedInUser({ account_type: "freelancer" });
    const res = await postForm(profileApi, "/api/profile", token, {
      company_name: "Fulano ME",
      company_cnpj: "11222333000181",
    });
    expect(res.status).toBe(200);
    expect(await company(user.id)).toEqual({ company_name: null, company_cnpj: null });
  });

  it("goes with the personal-data export and is erased with the account", async () => {
    const { user, token } = await signedInUser({ account_type: "merchant", password: "freela123" });
    await postForm(settingsPage, "/pages/profile-setting", token, {
      ...FORM,
      company_name: "Marta Design Ltda",
      company_cnpj: "11222333000181",
    });
    const { kinds } = await collectPersonalData(user.id);
    expect(kinds["profile.json"]).toMatchObject({ company_name: "Marta Design Ltda", company_cnpj: "11222333000181" });
    await deleteAccount(user, { password: "freela123" });
    expect(await company(user.id)).toEqual({ company_name: null, company_cnpj: null });
  });
});
