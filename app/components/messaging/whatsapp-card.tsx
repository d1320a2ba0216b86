import { useTranslation } from "react-i18next";
import { Field, FormActions, FormCard, IntentButton } from "~/components/ui/form";
import { usePending } from "~/lib/pending";

/** The number as the page reads it (whatsapp.server.ts, WhatsappNumberJson). */
export type WhatsappNumberView = { phone: string; status: "pending" | "confirmed" | "opted_out" | "unusable" };

type Refusal = { message?: string; errors?: Record<string, string>; values?: Record<string, string> };

/**
 * The account's WhatsApp number (docs/product.md, section 6, "WhatsApp"): add it, confirm it with
 * the code WhatsApp brings, remove it. Plain forms; the kinds it gets are the WhatsApp column of
 * the notification table, once it is confirmed. Shown only while WhatsApp is on.
 */
export function WhatsappCard({ number, refusal }: { number: WhatsappNumberView | null; refusal?: Refusal }) {
  const { t } = useTranslation("market");
  const adding = usePending("whatsapp_add");
  const confirming = usePending("whatsapp_confirm");
  const mine = (intent: string) => (refusal?.values?.intent === intent ? refusal : undefined);
  const remove = number ? (
    <IntentButton
      intent="whatsapp_remove"
      className="btn btn-danger-ghost btn-sm"
      label={t("whatsapp_card.remove_label", { phone: number.phone })}
    >
      {t("whatsapp_card.remove")}
    </IntentButton>
  ) : null;
  const addForm = (
    <FormCard
      name="whatsapp-add"
      heading="h3"
      className="stack"
      title={number ? t("whatsapp_card.other_number") : t("whatsapp_card.add_title")}
      refusal={mine("whatsapp_add")}
      intent="whatsapp_add"
    >
      <Field
        name="phone"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        label={t("whatsapp_card.phone")}
        hint={t("whatsapp_card.phone_hint")}
        defaultValue={mine("whatsapp_add")?.values?.phone ?? ""}
        error={mine("whatsapp_add")?.errors?.phone}
      />
      <FormActions busy={adding} label={t("whatsapp_card.send_code")} />
    </FormCard>
  );
  return (
    <section className="card form-card stack" id="whatsapp" aria-labelledby="whatsapp-title">
      <h2 id="whatsapp-title">{t("whatsapp_card.title")}</h2>
      <p className="muted">{t("whatsapp_card.intro")}</p>
      {number ? (
        <div className="row-between wrap">
          <p>
            <strong>{number.phone}</strong> · {t(`whatsapp_card.status.${number.status}`)}
          </p>
          {remove}
        </div>
      ) : null}
      {number?.status === "pending" ? (
        <FormCard
          name="whatsapp-confirm"
          heading="h3"
          className="stack"
          title={t("whatsapp_card.confirm_title")}
          refusal={mine("whatsapp_confirm")}
          intent="whatsapp_confirm"
        >
          <Field
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            label={t("whatsapp_card.code")}
            defaultValue={mine("whatsapp_confirm")?.values?.code ?? ""}
            error={mine("whatsapp_confirm")?.errors?.code}
          />
          <FormActions busy={confirming} label={t("whatsapp_card.confirm")} />
        </FormCard>
      ) : null}
      {number?.status === "confirmed" ? null : addForm}
    </section>
  );
}
