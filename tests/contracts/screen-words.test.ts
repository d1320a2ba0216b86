// What the screens say about money and about the end of a contract, in both languages: approving
// names the milestone and the amount it releases and ends the contract only with the last; each
// end states its cause; account e-mails write the time as the reader's clock does.
import { describe, expect, it } from "vitest";
import { endCause } from "~/components/contracts/contract";
import { approvalWords } from "~/lib/approval";
import { composeAccountEmail } from "~/services/messaging/account-email.server";
import { fixedT } from "~/services/platform/i18n.server";
import type { OutboxRow } from "../../db/schema";

/** Intl writes a no-break space after "R$". */
const plain = (text: string) => text.replace(/\u00a0/g, " ");

const m = (seq: number, status: string, amount_cents = 100_000, title = `Etapa ${seq}`) => ({
  seq,
  status,
  amount_cents,
  title,
});
const contract = (payments: string, milestones: ReturnType<typeof m>[]) => ({ payments, fee_bps: 1_000, milestones });

describe("approving a delivery", () => {
  const t = fixedT("pt-BR", "market");
  const en = fixedT("en", "market");
  const words = (c: ReturnType<typeof contract>, lng = "pt-BR") =>
    approvalWords(
      c,
      c.milestones.find((x) => ["funded", "delivered"].includes(x.status)),
      lng,
      fixedT(lng, "market"),
    );

  it("of the first of three milestones names it and what it releases, and does not end the contract", () => {
    const three = contract("escrow", [m(1, "delivered"), m(2, "awaiting_funding", 70_000), m(3, "awaiting_funding")]);
    const w = words(three);
    expect(w).toMatchObject({ context: "milestone", title: "Etapa 1" });
    const texts = [
      t("confirm.approve_title", { ...w, name: "Julinha" }),
      t("confirm.approve_text", { ...w, name: "Julinha" }),
      t("confirm.approve_button", { ...w, name: "Julinha" }),
      t("confirm.approve_releases", { ...w, name: "Julinha" }),
      t("contract.approve", w),
      t("contract.approve_hint", w),
      t("toasts.approved", w),
    ];
    for (const text of texts) expect(text).not.toMatch(/conclu/);
    expect(plain(t("toasts.approved", w))).toBe(
      "Etapa “Etapa 1” aprovada: R$ 1.000,00 liberados. O contrato segue na próxima etapa.",
    );
    expect(plain(t("confirm.approve_releases", { ...w, name: "Julinha" }))).toBe(
      "Etapa “Etapa 1”: libera R$ 1.000,00; Julinha recebe R$ 900,00 (taxa de 10%)",
    );
    const wEn = words(three, "en");
    expect(plain(en("contract.approve", wEn))).toBe("Approve the milestone “Etapa 1” (R$1,000.00)");
    expect(en("toasts.approved", wEn)).not.toMatch(/complet/);
  });

  it("of the last milestone, or of the only one, says it ends the contract, with the amount", () => {
    const last = words(contract("escrow", [m(1, "released"), m(2, "delivered", 50_000)]));
    expect(last.context).toBe("last");
    expect(plain(t("toasts.approved", last))).toBe(
      "Etapa “Etapa 2” aprovada: R$ 500,00 liberados. Contrato concluído!",
    );
    const only = words(contract("escrow", [m(1, "delivered", 150_000, "Projeto completo")]), "en");
    expect(only).toMatchObject({ context: "escrow", title: "Whole project" });
    expect(plain(en("confirm.approve_button", only))).toBe("Yes, approve, release R$1,500.00 and complete");
    // Without payments: the contract's approval, as before.
    const off = words(contract("off", [m(1, "funded")]));
    expect(off.context).toBe("");
    expect(plain(t("toasts.approved", off))).toBe("Entrega aprovada. Contrato concluído!");
  });
});

describe("the end of a contract", () => {
  const at = "2026-11-20T12:00:00.000Z";
  const base = { ended_at: at, dispute: null, events: [{ kind: "created", seq: 1 }] };
  it("states its real cause", () => {
    expect(endCause({ ...base, status: "completed", ended_by: "merchant" })).toBe("completed");
    expect(endCause({ ...base, status: "completed", ended_by: "system" })).toBe("completed_auto");
    const decided = { decision: "complete", decided_at: at };
    expect(endCause({ ...base, status: "completed", ended_by: "system", dispute: decided })).toBe("completed_dispute");
    expect(
      endCause({ ...base, status: "cancelled", ended_by: "system", dispute: { ...decided, decision: "cancel" } }),
    ).toBe("cancelled_dispute");
    expect(
      endCause({ ...base, status: "cancelled", ended_by: "system", dispute: { ...decided, decision: "split" } }),
    ).toBe("split_dispute");
    // A decision that released a milestone with more to follow did not end it: the later approval did.
    const earlier = { decision: "complete", decided_at: "2026-11-10T12:00:00.000Z" };
    expect(endCause({ ...base, status: "completed", ended_by: "merchant", dispute: earlier })).toBe("completed");
    expect(endCause({ ...base, status: "cancelled", ended_by: "freelancer" })).toBe("cancelled_freelancer");
    expect(endCause({ ...base, status: "cancelled", ended_by: "merchant" })).toBe("cancelled_merchant");
    const agreed = { ...base, events: [...base.events, { kind: "cancel_accepted", seq: 2 }] };
    expect(endCause({ ...agreed, status: "cancelled", ended_by: "freelancer" })).toBe("cancelled_agreed");
    for (const lng of ["pt-BR", "en"]) {
      const t = fixedT(lng, "market");
      const dispute = t("contract.ended_completed_dispute", { date: "20/11/2026" });
      expect(dispute).toMatch(lng === "en" ? /dispute/ : /disputa/);
      expect(dispute).not.toMatch(/14|automati/);
    }
  });
});

describe("account e-mails", () => {
  const row = (params: Record<string, string>) =>
    ({ kind: "sign_in_notice", payload: JSON.stringify({ params }) }) as unknown as OutboxRow;
  const user = (locale: string) => ({ email: "a@example.com", locale, display_name: "Ana", full_name: "Ana Lima" });

  it("write the time in Brasília time in the reader's language, and leave out an unknown address", () => {
    const params = { at: "2026-11-27T22:48:00.000Z", device: "Firefox · Linux", ip: "-", link: "https://x/y" };
    const pt = composeAccountEmail(row(params), user("pt-BR"))!;
    expect(pt.text).toContain("em 27/11/2026, 19:48 (horário de Brasília)");
    expect(pt.text).not.toContain("endereço");
    const en = composeAccountEmail(row({ ...params, ip: "203.0.113.9" }), user("en"))!;
    expect(en.text).toContain("(Brasília time)");
    expect(en.text).toContain("(address 203.0.113.9)");
    expect(en.text).not.toContain("UTC");
  });
});

describe("counts", () => {
  it("say none rather than 0 in the singular", () => {
    expect(fixedT("pt-BR", "common")("public_profile.open_opportunities", { count: 0 })).toBe(
      "Nenhuma oportunidade aberta",
    );
    expect(fixedT("pt-BR", "common")("public_profile.open_opportunities", { count: 1 })).toBe("1 oportunidade aberta");
    expect(fixedT("pt-BR", "admin")("reports.history_actioned", { count: 1 })).toBe("1 conteúdo com ação");
    expect(fixedT("en", "admin")("reports.history_warnings", { count: 2 })).toBe("2 warnings");
  });
});
