import { useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Field, FieldsForm, FormActions, SelectField, TextAreaField } from "~/components/ui/form";
import { FISCAL_ENVIRONMENTS, FISCAL_REGIMES, SIMPLES_REGIMES, fiscalSchema } from "~/lib/fiscal-schemas";
import { formFields } from "~/lib/form-fields";
import { formatDate } from "~/lib/format";
import type { IssuerView } from "~/services/fiscal/issuers.server";
import type { FormErrorData } from "~/web/errors.server";

/** The stored certificate's holder and expiry, with the warning 30 days ahead (or once expired). */
export function CertificateStatus({ issuer }: { issuer: IssuerView | null }) {
  const { t, i18n } = useTranslation("market");
  const certificate = issuer?.certificate;
  if (!certificate) return <p className="muted">{t("fiscal.stored_none")}</p>;
  const date = formatDate(certificate.expires_at, i18n.language);
  return (
    <>
      <p>{t("fiscal.stored", { cnpj: certificate.cnpj, date })}</p>
      {certificate.expired ? (
        <p className="notice notice-danger">{t("fiscal.expired", { date })}</p>
      ) : certificate.expires_soon ? (
        <p className="notice notice-warning">{t("fiscal.expires_soon", { date })}</p>
      ) : null}
    </>
  );
}

/**
 * The fiscal settings of an issuer (the platform's or a freelancer's own): a multipart form that
 * works without JavaScript. The certificate's password is never filled back in.
 */
export function FiscalSettingsForm({
  id,
  issuer,
  data,
  withEnabled = false,
}: {
  id: string;
  issuer: IssuerView | null;
  data: FormErrorData | null;
  withEnabled?: boolean;
}) {
  const { t } = useTranslation("market");
  const busy = useNavigation().state === "submitting";
  const f = formFields(fiscalSchema, data, issuer ?? { environment: "producao_restrita" });
  const enabled = data?.values ? data.values.enabled === "1" : (issuer?.enabled ?? true);
  return (
    <FieldsForm id={id} data={data} className="stack" encType="multipart/form-data">
      <input type="hidden" name="intent" value="fiscal" />
      {issuer ? <input type="hidden" name="version" value={issuer.version} /> : null}
      <Field {...f.cnpj} label={t("fiscal.cnpj")} inputMode="numeric" autoComplete="off" />
      <Field {...f.legal_name} label={t("fiscal.legal_name")} autoComplete="organization" />
      <Field {...f.municipal_registration} label={t("fiscal.municipal_registration")} autoComplete="off" />
      <Field
        {...f.municipality}
        label={t("fiscal.municipality")}
        hint={t("fiscal.municipality_hint")}
        inputMode="numeric"
      />
      <SelectField
        name={f.simples_nacional.name}
        label={t("fiscal.simples_nacional")}
        value={f.simples_nacional.defaultValue || (withEnabled ? "mei" : "nao_optante")}
        options={FISCAL_REGIMES.map((r) => ({ value: r, label: t(`fiscal.regimes.${r}`) }))}
        error={f.simples_nacional.error}
      />
      <SelectField
        name={f.simples_regime.name}
        label={t("fiscal.simples_regime")}
        value={f.simples_regime.defaultValue ?? ""}
        anyLabel={t("fiscal.simples_regime_none")}
        options={SIMPLES_REGIMES.map((r) => ({ value: r, label: t(`fiscal.simples_regimes.${r}`) }))}
        error={f.simples_regime.error}
      />
      <Field
        {...f.national_code}
        label={t("fiscal.national_code")}
        hint={t("fiscal.national_code_hint")}
        inputMode="numeric"
      />
      <Field {...f.nbs_code} label={t("fiscal.nbs_code")} hint={t("fiscal.nbs_code_hint")} inputMode="numeric" />
      <Field
        {...f.municipal_code}
        label={t("fiscal.municipal_code")}
        hint={t("fiscal.municipal_code_hint")}
        inputMode="numeric"
      />
      <TextAreaField {...f.description} label={t("fiscal.description")} rows={3} />
      <Field {...f.iss_rate} label={t("fiscal.iss_rate")} hint={t("fiscal.iss_rate_hint")} inputMode="decimal" />
      <SelectField
        name={f.environment.name}
        label={t("fiscal.environment")}
        value={f.environment.defaultValue || "producao_restrita"}
        options={FISCAL_ENVIRONMENTS.map((e) => ({ value: e, label: t(`fiscal.environments.${e}`) }))}
        error={f.environment.error}
      />
      <CertificateStatus issuer={issuer} />
      <Field
        name="certificate"
        type="file"
        accept=".pfx,.p12,application/x-pkcs12"
        label={t("fiscal.certificate")}
        hint={t(issuer?.certificate ? "fiscal.certificate_hint_later" : "fiscal.certificate_hint_first")}
        error={data?.errors?.certificate}
      />
      <Field
        name={f.certificate_password.name}
        type="password"
        autoComplete="off"
        label={t("fiscal.certificate_password")}
        hint={t("fiscal.certificate_password_hint")}
        error={f.certificate_password.error}
      />
      {withEnabled ? (
        <div className="field field-check">
          <input type="hidden" name="enabled" value="0" />
          <label>
            <input
              type="checkbox"
              name="enabled"
              value="1"
              defaultChecked={enabled}
              aria-describedby={`${id}-enabled-hint`}
            />{" "}
            {t("fiscal.enabled")}
          </label>
          <p className="field-hint" id={`${id}-enabled-hint`}>
            {t("fiscal.enabled_hint")}
          </p>
        </div>
      ) : null}
      <FormActions busy={busy} label={t("fiscal.save")} />
    </FieldsForm>
  );
}
