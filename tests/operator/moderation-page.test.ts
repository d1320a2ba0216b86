import { describe, expect, it } from "vitest";
import * as reportPage from "~/routes/_account+/report";
import * as casePage from "~/routes/admin+/reports.$type.$id";
import * as opportunityPage from "~/routes/opportunities+/$uuid";
import { db } from "../../db";
import { createOpportunity } from "../../db/factories";
import { signedInUser } from "../support/helpers";
import { get, postForm, signedInOperator, toastOf } from "./support";

// A report and its decision as a browser without JavaScript posts them (the forms' own fields,
// url-encoded), on both engines: the report's refusal keeps what was typed and a sent one lands on
// its confirmation; the operator's decision needs a reason (refused on its field, with the choice
// kept), then hides the opportunity with a toast. The browser story (tests/e2e/moderation.spec.ts)
// runs with JavaScript.

const WHY = "Pede pagamento por fora da plataforma, contra as regras do Freela.";

describe("moderation's forms without JavaScript", () => {
  it("report → confirmation; hide without a reason refused, with one done; the author sees why", async () => {
    const merchant = await signedInUser({ account_type: "merchant" });
    const reporter = await signedInUser({ account_type: "freelancer" });
    const opp = await createOpportunity(db, { merchant_id: merchant.user.id });
    const path = `/report?type=opportunity&id=${opp.uuid}&back=/opportunities/${opp.uuid}`;
    const details = "Pediu o pagamento por Pix direto, fora do Freela.";

    const refused = await postForm(reportPage, path, reporter.token, { details });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.reason).toBe("Escolha um motivo da lista.");
    expect(refused.body.values.details).toBe(details);
    const sent = await postForm(reportPage, path, reporter.token, { reason: "off_platform", details });
    expect(sent.status).toBe(302);
    const confirmation = new URL(sent.headers.get("Location")!, "http://localhost");
    expect(confirmation.pathname).toBe("/report");
    expect(confirmation.searchParams.get("sent")).toBe("1");
    expect(
      (await get(reportPage, `${confirmation.pathname}${confirmation.search}`, reporter.token)).body,
    ).toMatchObject({
      sent: true,
      back: `/opportunities/${opp.uuid}`,
    });

    const olga = await signedInOperator();
    const here = `/admin/reports/opportunity/${opp.uuid}`;
    const params = { type: "opportunity", id: opp.uuid };
    const noReason = await postForm(
      casePage,
      here,
      olga.token,
      { intent: "resolve", action: "hide", reason: "" },
      params,
    );
    expect(noReason.status).toBe(422);
    expect(noReason.body.errors.reason).toBe("Escreva o motivo (de 5 a 2000 caracteres).");
    expect(noReason.body.values.action).toBe("hide");
    const hidden = await postForm(
      casePage,
      here,
      olga.token,
      { intent: "resolve", action: "hide", reason: WHY },
      params,
    );
    expect(hidden.status).toBe(302);
    expect(hidden.headers.get("Location")).toBe(here);
    expect(await toastOf(hidden)).toBe("Denúncias resolvidas.");

    // The author still reads it, hidden, and why; the reporter no longer finds it.
    const own = await get(opportunityPage, `/opportunities/${opp.uuid}`, merchant.token, { uuid: opp.uuid });
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body)).toContain(WHY);
    expect((await get(opportunityPage, `/opportunities/${opp.uuid}`, reporter.token, { uuid: opp.uuid })).status).toBe(
      404,
    );
  });
});
