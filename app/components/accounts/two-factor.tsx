import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CodeField, PasswordField } from "~/components/accounts/fields";
import { Alert, FormActions, FormMessage } from "~/components/ui/form";
import { CopyButton } from "~/components/ui/copy-button";
import { usePending } from "~/lib/pending";
import type { FormErrorData } from "~/web/errors.server";

export type TwoFactorView = {
  enabled: boolean;
  pending: boolean;
  recovery_codes_left: number;
  enrollment: { secret: string; otpauth_uri: string; qr_code: string } | null;
};

/**
 * A move that the password and a current code confirm: its refusal, the two fields (`<ids>-password`,
 * `<ids>-code`) and, as `children`, its button.
 */
function CodeConfirmedForm({
  intent,
  ids,
  data,
  children,
}: {
  intent: string;
  ids: string;
  data: FormErrorData | undefined;
  children: ReactNode;
}) {
  const { t } = useTranslation("account");
  return (
    <>
      <FormMessage data={data} />
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="intent" value={intent} />
        <div className="grid-2">
          <PasswordField data={data} id={`${ids}-password`} />
          <CodeField data={data} id={`${ids}-code`} hint={t("two_factor.code_hint")} />
        </div>
        {children}
      </Form>
    </>
  );
}

/**
 * The security settings' two-factor section: off (turn on with the password), enrolling (the QR
 * code, the key as text, a code to confirm), just turned on (the recovery codes, this once), on
 * (turn off with the password and a code).
 */
export function TwoFactorSection({
  state,
  refusal,
  recoveryCodes,
}: {
  state: TwoFactorView;
  refusal?: FormErrorData;
  recoveryCodes?: string[];
}) {
  const { t } = useTranslation("account");
  const starting = usePending("two_factor_start");
  const confirming = usePending("two_factor_confirm");
  const disabling = usePending("two_factor_disable");
  const regenerating = usePending("recovery_codes");
  const shown = (intent: string) => (refusal?.values?.intent === intent ? refusal : undefined);
  return (
    <section className="card form-card stack" id="two-factor" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">
        {t("two_factor.title")}{" "}
        <span className={`badge ${state.enabled ? "badge-success" : "badge-warning"}`}>
          {state.enabled ? t("two_factor.status_on") : t("two_factor.status_off")}
        </span>
      </h2>
      {recoveryCodes ? (
        <div className="stack" id="recovery-codes">
          <Alert type="success">{t("two_factor.recovery_title")}</Alert>
          <p>{t("two_factor.recovery_intro")}</p>
          <ul className="recovery-codes">
            {recoveryCodes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ul>
          <p>
            {/* A data link: the codes leave with this page (never stored in clear, the page is no-store), without JavaScript too. */}
            <a
              className="btn btn-secondary btn-sm"
              href={recoveryCodesFile(recoveryCodes)}
              download={t("two_factor.recovery_file")}
            >
              {t("two_factor.recovery_download")}
            </a>
          </p>
        </div>
      ) : null}
      {state.enabled ? (
        <>
          <p className="muted">{t("two_factor.intro_on", { count: state.recovery_codes_left })}</p>
          <p>{t("two_factor.disable_intro")}</p>
          <CodeConfirmedForm intent="two_factor_disable" ids="two-factor-off" data={shown("two_factor_disable")}>
            {/* Turning protection off is not the page's main move: not the primary button. */}
            <FormActions busy={disabling} label={t("two_factor.disable")} className="btn btn-secondary" />
          </CodeConfirmedForm>
          <div className="stack" id="recovery-regenerate">
            <h3>{t("two_factor.regenerate_title")}</h3>
            <p className="muted">{t("two_factor.regenerate_intro")}</p>
            <CodeConfirmedForm intent="recovery_codes" ids="recovery" data={shown("recovery_codes")}>
              <FormActions busy={regenerating} label={t("two_factor.regenerate")} />
            </CodeConfirmedForm>
          </div>
        </>
      ) : state.enrollment ? (
        <>
          <p>{t("two_factor.scan")}</p>
          <div className="totp-setup">
            <img src={state.enrollment.qr_code} alt={t("two_factor.qr_alt")} width={200} height={200} />
            <div className="stack">
              {/* On the phone that holds the authenticator, the QR cannot be scanned: the link opens the app. */}
              <p>
                <a href={state.enrollment.otpauth_uri} className="btn btn-secondary btn-sm">
                  {t("two_factor.open_app")}
                </a>
              </p>
              <p className="muted small">{t("two_factor.open_app_hint")}</p>
              <p className="totp-key">
                {t("two_factor.secret")}: <code className="totp-secret">{state.enrollment.secret}</code>{" "}
                <CopyButton text={state.enrollment.secret} label={t("two_factor.copy_secret")} />
              </p>
            </div>
          </div>
          <FormMessage data={shown("two_factor_confirm")} />
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="intent" value="two_factor_confirm" />
            <CodeField data={shown("two_factor_confirm")} id="two-factor-code" inputMode="numeric" />
            <FormActions busy={confirming} label={t("two_factor.confirm")} />
          </Form>
        </>
      ) : (
        <>
          <p className="muted">{t("two_factor.intro_off")}</p>
          <FormMessage data={shown("two_factor_start")} />
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="intent" value="two_factor_start" />
            <PasswordField data={shown("two_factor_start")} id="two-factor-password" />
            <FormActions busy={starting} label={t("two_factor.start")} />
          </Form>
        </>
      )}
    </section>
  );
}

/** The recovery codes as a text file, one a line, for a download link that needs no script. */
export function recoveryCodesFile(codes: string[]) {
  return `data:text/plain;charset=utf-8,${encodeURIComponent(`${codes.join("\r\n")}\r\n`)}`;
}
