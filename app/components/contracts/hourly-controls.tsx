import { useTranslation } from "react-i18next";
import { Field, FormActions, FormCard, useRefusal } from "~/components/ui/form";
import { usePending } from "~/lib/pending";

// The controls of an hourly contract beside its week (docs/product.md, "Contrato por hora
// (semanas)"): the merchant's weekly cap, changed from the next week not opened yet. Plain forms
// posting an intent of the contract's page, so they work without JavaScript.

/** The merchant changes the weekly cap (1 to 60 hours) while the contract runs. */
export function CapForm({ capMinutes }: { capMinutes: number }) {
  const { t } = useTranslation("market");
  const mine = useRefusal("change_cap");
  const busy = usePending("change_cap");
  const hours = capMinutes / 60;
  return (
    <FormCard
      name="cap"
      id="cap"
      title={t("work.cap_title")}
      intro={t("work.cap_intro", { hours })}
      refusal={mine}
      intent="change_cap"
      preventScrollReset
    >
      <Field
        name="weekly_cap_hours"
        label={t("work.cap_field")}
        type="number"
        inputMode="numeric"
        min={1}
        max={60}
        defaultValue={mine?.values?.weekly_cap_hours ?? String(hours)}
        error={mine?.errors?.weekly_cap_hours}
      />
      <FormActions busy={busy} label={t("work.cap_submit")} className="btn btn-secondary" />
    </FormCard>
  );
}
