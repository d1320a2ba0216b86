import { useFetcher } from "@remix-run/react";
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from "@simplewebauthn/browser";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert, Field, FormMessage, IntentButton } from "~/components/ui/form";
import { formatDateTime } from "~/lib/format";
import { useHydrated } from "~/lib/hydrated";
import type { FormErrorData } from "~/web/errors.server";

// Passkeys in the browser, on @simplewebauthn/browser: the page's action hands out the options
// (intent `passkey_options`), the browser asks the authenticator, and the answer goes back to the
// same action as JSON text in a form field. WebAuthn has no form of its own, so adding a passkey
// and signing in with one need JavaScript; without it the page says so and the rest works.

export type PasskeyItem = { id: string; name: string; created_at: string; last_used_at: string | null };

type OptionsData = FormErrorData & { passkeyOptions?: unknown };

/** Whether this browser can use passkeys: null until the page's script runs (and without it). */
function useWebAuthn() {
  const hydrated = useHydrated();
  const [supported, setSupported] = useState<boolean | null>(null);
  useEffect(() => {
    if (hydrated) setSupported(browserSupportsWebAuthn());
  }, [hydrated]);
  return supported;
}

/**
 * The two round trips of a ceremony: options from the action, the authenticator's answer, the
 * answer back to the action. `fields` go along with the answer (a name, where to go next).
 */
function useCeremony(kind: "register" | "sign_in") {
  const options = useFetcher<OptionsData>();
  const answer = useFetcher<FormErrorData>();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [failed, setFailed] = useState(false);
  const [asking, setAsking] = useState(false);
  const optionsJSON = options.data?.passkeyOptions;
  // Each set of options starts one ceremony, once the fetcher has settled (its revalidation done).
  const used = useRef<unknown>(null);
  useEffect(() => {
    if (!optionsJSON || options.state !== "idle" || used.current === optionsJSON) return;
    used.current = optionsJSON;
    setAsking(true);
    const ask =
      kind === "register"
        ? startRegistration({ optionsJSON: optionsJSON as Parameters<typeof startRegistration>[0]["optionsJSON"] })
        : startAuthentication({
            optionsJSON: optionsJSON as Parameters<typeof startAuthentication>[0]["optionsJSON"],
          });
    ask
      .then((response) =>
        answer.submit(
          { ...fields, intent: kind === "register" ? "passkey_add" : "passkey", response: JSON.stringify(response) },
          { method: "post" },
        ),
      )
      .catch(() => setFailed(true))
      .finally(() => setAsking(false));
    // The fields and the answer's fetcher are read as they are when the options arrive.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [optionsJSON, options.state]);
  const start = (with_: Record<string, string>) => {
    // The proof (password, code) goes with the options only, never again with the answer.
    setFields(Object.fromEntries(Object.entries(with_).filter(([key]) => key !== "password" && key !== "code")));
    setFailed(false);
    options.submit({ ...with_, intent: "passkey_options" }, { method: "post" });
  };
  const busy = asking || options.state !== "idle" || answer.state !== "idle";
  // The refusal to show: the answer's, else the options' (a limit, say).
  const refusal =
    answer.state === "idle" && answer.data?.message ? answer.data : options.data?.message ? options.data : null;
  return { start, busy, failed, refusal };
}

/** The security settings' passkeys: the list (name, added, last used; remove), and adding one. */
export function PasskeysSection({
  passkeys,
  twoFactor,
  refusal,
}: {
  passkeys: PasskeyItem[];
  /** Whether two-factor is on: adding a passkey then asks for a code too. */
  twoFactor: boolean;
  refusal?: FormErrorData;
}) {
  const { t, i18n } = useTranslation("account");
  return (
    <section className="card form-card stack" id="passkeys" aria-labelledby="passkeys-title">
      <h2 id="passkeys-title">{t("passkeys.title")}</h2>
      <p className="muted">{t("passkeys.intro")}</p>
      <FormMessage data={refusal} />
      {passkeys.length ? (
        <ul className="session-list" aria-label={t("passkeys.list_label")}>
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="session-item" data-passkey={passkey.id}>
              <div>
                <strong>{passkey.name}</strong>
                <br />
                <span className="muted">
                  {t("passkeys.created")}: {formatDateTime(passkey.created_at, i18n.language)} ·{" "}
                  {t("passkeys.last_used")}:{" "}
                  {passkey.last_used_at
                    ? formatDateTime(passkey.last_used_at, i18n.language)
                    : t("passkeys.never_used")}
                </span>
              </div>
              <IntentButton
                intent="passkey_remove"
                fields={{ passkey: passkey.id }}
                className="btn btn-danger-ghost btn-sm"
                label={t("passkeys.remove_label", { name: passkey.name })}
              >
                {t("passkeys.remove")}
              </IntentButton>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("passkeys.none")}</p>
      )}
      <AddPasskey twoFactor={twoFactor} />
    </section>
  );
}

/**
 * Adding a passkey: a name, and the fresh proof the action asks for before it hands out the
 * options (the current password, and a code when two-factor is on). Neither is kept in the page.
 */
function AddPasskey({ twoFactor }: { twoFactor: boolean }) {
  const { t } = useTranslation("account");
  const supported = useWebAuthn();
  const ceremony = useCeremony("register");
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  if (supported === null) return <p className="notice notice-info">{t("passkeys.needs_javascript")}</p>;
  if (!supported) return <p className="notice notice-info">{t("passkeys.unsupported")}</p>;
  const errors = ceremony.refusal?.errors ?? {};
  const fieldError = errors.name || errors.password || errors.code;
  return (
    <form
      className="stack"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        ceremony.start({ name, password, ...(twoFactor ? { code } : {}) });
        setPassword("");
        setCode("");
      }}
    >
      {ceremony.failed ? <Alert type="danger">{t("passkeys.cancelled")}</Alert> : null}
      {ceremony.refusal && !fieldError ? <FormMessage data={ceremony.refusal} /> : null}
      <Field
        name="name"
        id="passkey-name"
        label={t("passkeys.name")}
        hint={t("passkeys.name_hint")}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={errors.name}
        maxLength={60}
        autoComplete="off"
      />
      <div className="grid-2">
        <Field
          name="password"
          id="passkey-password"
          type="password"
          label={t("passkeys.password")}
          hint={t("passkeys.password_hint")}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={errors.password}
          autoComplete="current-password"
          required
        />
        {twoFactor ? (
          <Field
            name="code"
            id="passkey-code"
            label={t("two_factor.code")}
            hint={t("two_factor.code_hint")}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={errors.code}
            autoComplete="one-time-code"
            required
          />
        ) : null}
      </div>
      <div>
        <button type="submit" className="btn btn-primary" disabled={ceremony.busy}>
          {ceremony.busy ? t("passkeys.adding") : t("passkeys.add")}
        </button>
      </div>
    </form>
  );
}

/** The login page's "Entrar com chave de acesso": usernameless; the passkey names the account. */
export function PasskeySignIn({ redirectFrom }: { redirectFrom: string }) {
  const { t } = useTranslation("account");
  const supported = useWebAuthn();
  const ceremony = useCeremony("sign_in");
  if (supported === null) return <p className="muted">{t("passkeys.sign_in_needs_javascript")}</p>;
  if (!supported) return null;
  return (
    <div className="stack" aria-live="polite">
      {ceremony.failed ? <Alert type="danger">{t("passkeys.sign_in_cancelled")}</Alert> : null}
      <FormMessage data={ceremony.refusal} />
      <button
        type="button"
        className="btn btn-secondary btn-block"
        disabled={ceremony.busy}
        onClick={() => ceremony.start({ redirectFrom })}
      >
        {ceremony.busy ? t("passkeys.signing_in") : t("passkeys.sign_in")}
      </button>
    </div>
  );
}
