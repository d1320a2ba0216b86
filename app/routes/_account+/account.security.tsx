import { json, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PasswordField } from "~/components/accounts/fields";
import { Field, fieldsOf, FormActions, FormMessage } from "~/components/ui/form";
import { titleMeta } from "~/lib/meta";
import { config } from "~/config.server";
import { usePending } from "~/lib/pending";
import { SessionsSection } from "~/components/accounts/sessions";
import { PageHeader } from "~/components/ui/page-header";
import { TwoFactorSection } from "~/components/accounts/two-factor";
import { PasskeysSection } from "~/components/accounts/passkeys";
import { DataExportSection } from "~/components/accounts/data-export";
import { dataExportState, requestDataExport } from "~/services/accounts/data-export.server";
import { DeleteAccountSection } from "~/components/accounts/delete-account";
import { deleteAccount, deletionBlocker, heldMoney } from "~/services/accounts/deletion.server";
import { AppError } from "~/services/platform/errors.server";
import {
  addPasskey,
  listPasskeys,
  passkeyRegistrationOptions,
  removePasskey,
} from "~/services/accounts/passkeys.server";
import { clientOf } from "~/web/client.server";
import { changePassword } from "~/services/accounts/password-change.server";
import { LIMITS } from "~/lib/limits";
import {
  confirmTwoFactor,
  disableTwoFactor,
  pendingEnrollment,
  regenerateRecoveryCodes,
  startTwoFactor,
  twoFactorState,
} from "~/services/accounts/two-factor.server";
import { endOtherSessions, endSessionById, listSessions } from "~/services/accounts/sessions.server";
import { requestEmailChange } from "~/services/accounts/verification.server";
import { requireAccount } from "~/web/auth.server";
import { formValues, readForm } from "~/web/bodies.server";
import { formError } from "~/web/errors.server";
import { getRequestT } from "~/web/i18n.server";
import { redirectWithSuccess } from "~/web/toast.server";
import { getRequestToken, getSession, sessionCookie } from "~/web/session.server";
import { idParam } from "~/web/params.server";

export const meta = titleMeta("titles.account_security");

/**
 * The page shows the authenticator key while two-factor is being set up and the recovery codes
 * once (also as a downloadable text): never kept by a cache, its data (loader, action) neither.
 */
const NO_STORE = { "Cache-Control": "no-store" };
export const headers: HeadersFunction = () => NO_STORE;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAccount(request);
  const [sessions, twoFactor, enrollment, passkeys, session, blocker, { t }, dataExport] = await Promise.all([
    listSessions(user, await getRequestToken(request)),
    twoFactorState(user),
    pendingEnrollment(user),
    listPasskeys(user),
    getSession(request),
    deletionBlocker(user),
    getRequestT(request),
    dataExportState(user),
  ]);
  return json(
    {
      // The console waits for this account's two-factor sign-in (OPERATOR_TWO_FACTOR); a session
      // opened with a passkey is enough.
      operatorMustEnroll:
        user.account_type === "operator" &&
        config.OPERATOR_TWO_FACTOR === "required" &&
        !twoFactor.enabled &&
        !session?.viaPasskey,
      passkeys,
      email: user.email,
      verifiedAt: user.email_verified_at,
      sessions,
      dataExport,
      // Operators are removed with `npm run operator:remove`: no deletion section for them.
      deletion:
        user.account_type === "operator"
          ? null
          : {
              blocker: blocker && t(blocker),
              // Money that also blocks it, and where it is (besides a running contract or a dispute).
              held: blocker ? await heldMoney(user.id) : [],
              twoFactor: twoFactor.enabled,
            },
      twoFactor: {
        ...twoFactor,
        enrollment: enrollment && {
          secret: enrollment.secret,
          otpauth_uri: enrollment.otpauth_uri,
          qr_code: enrollment.qr_code,
        },
      },
    },
    { headers: NO_STORE },
  );
}

/** The page's forms, told apart by `intent`; each refusal comes back on its own form with what was typed. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireAccount(request);
  let values: Record<string, string> = {};
  try {
    values = formValues(await readForm(request));
    const { t } = await getRequestT(request);
    switch (values.intent) {
      case "email": {
        const { email } = await requestEmailChange(user, values);
        return redirectWithSuccess("/account/security#email", t("email_change_sent", { email }));
      }
      case "end_session": {
        await endSessionById(user, idParam(values, "session", "session_not_found"), await getRequestToken(request));
        return redirectWithSuccess("/account/security#sessions", t("session_ended"));
      }
      case "two_factor_start": {
        await startTwoFactor(user, values);
        return redirectWithSuccess("/account/security#two-factor", t("two_factor_setup_started"));
      }
      case "two_factor_confirm": {
        // The recovery codes are shown on this answer only: no redirect.
        const { recovery_codes } = await confirmTwoFactor(user, values, await getRequestToken(request));
        return json({ recoveryCodes: recovery_codes, values: { intent: values.intent } }, { headers: NO_STORE });
      }
      case "recovery_codes": {
        // Shown on this answer only, like the first ones: no redirect.
        const { recovery_codes } = await regenerateRecoveryCodes(user, values);
        return json({ recoveryCodes: recovery_codes, values: { intent: values.intent } }, { headers: NO_STORE });
      }
      case "two_factor_disable": {
        await disableTwoFactor(user, values);
        return redirectWithSuccess("/account/security#two-factor", t("two_factor_off"));
      }
      case "passkey_options": {
        // The page's script hands these to the browser (navigator.credentials.create).
        return json({ passkeyOptions: await passkeyRegistrationOptions(user, values) });
      }
      case "passkey_add": {
        await addPasskey(user, values, await clientOf(request));
        return redirectWithSuccess("/account/security#passkeys", t("passkey_added"));
      }
      case "passkey_remove": {
        await removePasskey(user, values.passkey ?? "", await getRequestToken(request));
        return redirectWithSuccess("/account/security#passkeys", t("passkey_removed"));
      }
      case "password_change": {
        await changePassword(user, values, await getRequestToken(request));
        return redirectWithSuccess("/account/security#password", t("password_changed"));
      }
      case "data_export": {
        await requestDataExport(user);
        return redirectWithSuccess("/account/security#data", t("data_export_requested"));
      }
      case "account_delete": {
        if (values.confirm !== "1") {
          throw new AppError(422, "account_delete_failed", { confirm: "account_delete_confirm_required" });
        }
        await deleteAccount(user, values);
        // Signed out (the sessions are gone with the account): the visitor's way in, like after
        // signing out, with the news.
        return redirectWithSuccess("/auth/login", t("account_deleted"), {
          headers: { "Set-Cookie": await sessionCookie.serialize("", { maxAge: 0 }) },
        });
      }
      case "end_others": {
        await endOtherSessions(user, await getRequestToken(request));
        return redirectWithSuccess("/account/security#sessions", t("sessions_others_ended"));
      }
      default:
        return json({ message: t("malformed_form"), values }, { status: 400 });
    }
  } catch (error) {
    return formError(request, error, values);
  }
}

type Refusal = {
  message?: string;
  errors?: Record<string, string>;
  values?: Record<string, string>;
  recoveryCodes?: string[];
};

/** The refusal of the form with this intent, if the last one sent was it. */
function refusalOf(data: Refusal | undefined, intent: string) {
  return data?.values?.intent === intent ? data : undefined;
}

/**
 * Whether the form a refusal belongs to is on the page now. One that is not (two-factor turned on
 * or off in another tab, a passkey answer sent without the page's script, a form that could not
 * be read) is said at the top of the page instead, so no refusal goes unseen.
 */
function formOnPage(
  intent: string | undefined,
  twoFactor: { enabled: boolean; enrollment: unknown },
  deletion: { blocker: string | null } | null,
) {
  switch (intent) {
    case "email":
    case "password_change":
    case "passkey_remove":
    case "data_export": // there unless a copy is pending, and asking then is never refused
      return true;
    case "two_factor_start":
      return !twoFactor.enabled && !twoFactor.enrollment;
    case "two_factor_confirm":
      return !twoFactor.enabled && Boolean(twoFactor.enrollment);
    case "two_factor_disable":
    case "recovery_codes":
      return twoFactor.enabled;
    case "account_delete":
      return Boolean(deletion && !deletion.blocker);
    default:
      return false;
  }
}

export default function AccountSecurityPage() {
  const data = useActionData<typeof action>() as Refusal | undefined;
  const { sessions, twoFactor, operatorMustEnroll, passkeys, dataExport, deletion } = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  return (
    <div className="page">
      <PageHeader title={t("security.title")} intro={t("security.intro")} />
      {data?.message && !formOnPage(data.values?.intent, twoFactor, deletion) ? <FormMessage data={data} /> : null}
      {operatorMustEnroll ? (
        <p className="notice notice-warning" role="status">
          {t("security.operator_two_factor")}
        </p>
      ) : null}
      <EmailSection refusal={refusalOf(data, "email")} />
      <PasswordSection refusal={refusalOf(data, "password_change")} />
      <TwoFactorSection
        state={twoFactor}
        refusal={data?.recoveryCodes ? undefined : data}
        recoveryCodes={data?.recoveryCodes}
      />
      <PasskeysSection passkeys={passkeys} twoFactor={twoFactor.enabled} refusal={refusalOf(data, "passkey_remove")} />
      <SessionsSection sessions={sessions} />
      <DataExportSection state={dataExport} refusal={refusalOf(data, "data_export")} />
      {deletion ? <DeleteAccountSection state={deletion} refusal={refusalOf(data, "account_delete")} /> : null}
    </div>
  );
}

function EmailSection({ refusal }: { refusal?: Refusal }) {
  const { t } = useTranslation("account");
  const { email, verifiedAt } = useLoaderData<typeof loader>();
  const busy = usePending("email");
  return (
    <section className="card form-card" id="email" aria-labelledby="email-title">
      <h2 id="email-title">{t("security.email_title")}</h2>
      <p>
        {t("security.email_current")}: <strong>{email}</strong>{" "}
        <span className={`badge ${verifiedAt ? "badge-success" : "badge-warning"}`}>
          {verifiedAt ? t("security.email_verified") : t("security.email_unverified")}
        </span>
      </p>
      <p className="muted">{t("security.email_change_intro")}</p>
      <FormMessage data={refusal} />
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="intent" value="email" />
        <div className="grid-2">
          <Field
            {...fieldsOf(refusal)("email")}
            id="new-email"
            type="email"
            label={t("security.new_email")}
            autoComplete="email"
            required
          />
          <PasswordField data={refusal} id="email-password" label={t("security.current_password")} />
        </div>
        <FormActions busy={busy} label={t("security.email_change_submit")} />
      </Form>
    </section>
  );
}

/** Changing the password: the current one and the new one (never typed back); the other sessions end. */
function PasswordSection({ refusal }: { refusal?: Refusal }) {
  const { t } = useTranslation("account");
  const { t: common } = useTranslation();
  const busy = usePending("password_change");
  return (
    <section className="card form-card" id="password" aria-labelledby="password-title">
      <h2 id="password-title">{t("password.title")}</h2>
      <p className="muted">{t("password.intro")}</p>
      <FormMessage data={refusal} />
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="intent" value="password_change" />
        <div className="grid-2">
          <PasswordField data={refusal} id="change-current-password" label={t("password.current")} />
          <Field
            name="new_password"
            id="change-new-password"
            type="password"
            label={t("password.new")}
            autoComplete="new-password"
            required
            minLength={LIMITS.password.min}
            hint={common("fields.password_hint")}
            error={refusal?.errors?.new_password}
          />
        </div>
        <FormActions busy={busy} label={t("password.submit")} />
      </Form>
    </section>
  );
}
