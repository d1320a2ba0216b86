import { describe, expect, it } from "vitest";
import * as root from "~/root";
import * as listPage from "~/routes/opportunities+/_index";
import { findSession } from "~/services/accounts/sessions.server";
import { notify } from "~/services/messaging/notifications.server";
import { db } from "../../db";
import { createOpportunity, createUser } from "../../db/factories";
import { listPageData, renderListPage } from "../../bench/bare-page";
import { get } from "../operator/support";
import { signedInUser } from "../support/helpers";

// The benchmark's bare SSR reference of the signed-in list page (bench/bare-page.tsx) only means
// something while it does the page's work: it must read what the root's and the page's loaders
// give the page, and render the list from it. (`npm run bench -- --only bare` checks that its
// <body> is the app's, byte for byte, without the scripts.)

describe("bare SSR reference of the list page", () => {
  it("reads what the loaders of /opportunities read, and renders the list's cards", async () => {
    const merchant = await createUser(db, { account_type: "merchant" });
    const titles = ["Loja virtual de cerâmica", "Aplicativo de agendamento", "Identidade visual de café"];
    const opportunities = [];
    for (const title of titles) opportunities.push(await createOpportunity(db, { merchant_id: merchant.id, title }));
    const { token } = await signedInUser({ account_type: "freelancer", full_name: "Bia Bancada" });
    // The user as the bare server finds it: by the app's session lookup.
    const { user } = (await findSession(token))!;
    await notify(db, {
      user_id: user.id,
      kind: "invitation_received",
      application_id: null,
      opportunity_id: opportunities[0]!.id,
    });

    const rootData = (await get(root, "/opportunities", token)).body;
    const pageData = (await get(listPage, "/opportunities", token)).body;
    expect(rootData.notifications.unread).toBe(1);
    expect(pageData.list.data).toHaveLength(3);
    // The loaders' data crosses JSON on its way to the page.
    expect(JSON.parse(JSON.stringify(await listPageData(user)))).toEqual({ root: rootData, page: pageData });

    const html = (await renderListPage(user)).body.toString();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="pt-BR"/);
    expect(html).toContain("<title>Oportunidades Disponíveis | Freela</title>");
    for (const title of titles) expect(html).toContain(title);
    expect(html).toContain(`href="/opportunities/${opportunities[2]!.uuid}"`);
    expect(html).not.toContain("<script");
  });
});
