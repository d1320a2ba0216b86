import { json, type ActionFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "~/components/accounts/auth-layout";
import { registerHref } from "~/components/discovery/public-frame";
import { EmailField, PasswordField } from "~/components/accounts/fields";
import { Field, FieldsForm, SubmitButton } from "~/components/ui/form";
import { titleMeta } from "~/lib/meta";
import { login } from "~/services/accounts/accounts.server";
import { completeTwoFactorLogin } from "~/services/accounts/two-factor.server";
import { passkeySignInOptions, signInWithPasskey } from "~/services/accounts/passkeys.server";
import { PasskeySignIn } from "~/components/accounts/passkeys";
import type { FormErrorData } from "~/web/errors.server";
import { safeRedirect } from "~/web/auth.server";
import { getRequestT } from "~/web/i18n.server";
import { browserSignIn } from "~/web/session.server";
import { redirectWithSuccess } from "~/web/toast.server";
import { displayNameOf } from "~/services/accounts/users.server";
import { clientOf } from "~/web/client.server";
import { usePending } from "~/lib/pending";
import { visitorFormAction } from "~/web/page-form.server";

export const meta = titleMeta("titles.login");

/** A visitor's page. */
export { visitorLoader as loader } from "~/web/auth.server";

/**
 * The password, then, for an account with two-factor on, the second step on the same page: the
 * page comes back with a code field and carries the step's challenge, the e-mail and where the
 * visitor was going (nothing typed is lost); a wrong code comes back on that step.
 */
export async function action(args: ActionFunctionArgs) {
  return visitorFormAction(args, async ({ request, values }) => {
    const client = await clientOf(request);
    // A passkey's two round trips (the page's script): the options, then the answer.
    if (values.intent === "passkey_options") return json({ passkeyOptions: await passkeySignInOptions(client) });
    const result =
      values.intent === "passkey"
        ? await signInWithPasskey(values, client)
        : values.challenge
          ? await completeTwoFactorLogin(values, client)
          : await login(values, client);
    if (result.twoFactor) {
      const { t } = await getRequestT(request);
      return json({
        twoFactor: true,
        message: t("two_factor_needed"),
        values: {
          challenge: result.twoFactor.challenge,
          email: values.email ?? "",
          redirectFrom: values.redirectFrom ?? "",
        },
      });
    }
    const headers = await browserSignIn(request, result.token);
    const { t } = await getRequestT(request);
    return redirectWithSuccess(
      safeRedirect(values.redirectFrom, "/"),
      t("welcome_back", { name: displayNameOf(result.user) }),
      {
        headers,
      },
    );
  });
}

type LoginData = FormErrorData & { twoFactor?: boolean };

/**
 * The second step, while its challenge holds: the password's answer, or a wrong code on it. A
 * dead challenge or too many attempts go back to the password, the e-mail kept.
 */
const onSecondStep = (data: LoginData | undefined) =>
  Boolean(data?.values?.challenge) && (Boolean(data?.twoFactor) || Boolean(data?.errors?.code));

export default function LoginPage() {
  const { t } = useTranslation();
  const data = useActionData<typeof action>() as LoginData | undefined;
  const [params] = useSearchParams();
  const busy = usePending();
  const redirectFrom = params.get("redirectFrom") ?? data?.values?.redirectFrom ?? "";
  return (
    <AuthLayout
      title={t("auth.login_title")}
      subtitle={t("auth.login_subtitle")}
      footer={
        <>
          {t("auth.no_account")}{" "}
          <Link to={redirectFrom ? registerHref(redirectFrom) : "/register"} className="link">
            {t("auth.create_account")}
          </Link>
        </>
      }
    >
      {onSecondStep(data) ? (
        <SecondStep data={data!} />
      ) : (
        <FieldsForm id="login-form" data={data} className="stack">
          <input type="hidden" name="redirectFrom" value={redirectFrom} />
          <EmailField data={data} />
          <PasswordField data={data} />
          <div className="row-between">
            <Link to="/forgot-password" className="link">
              {t("auth.forgot_link")}
            </Link>
          </div>
          <SubmitButton
            busy={busy}
            label={t("actions.sign_in")}
            busyLabel={t("actions.signing_in")}
            className="btn btn-primary btn-block"
          />
        </FieldsForm>
      )}
      {onSecondStep(data) ? null : (
        <div className="stack passkey-sign-in">
          <p className="muted center" aria-hidden="true">
            {t("auth.or")}
          </p>
          <PasskeySignIn redirectFrom={params.get("redirectFrom") ?? data?.values?.redirectFrom ?? ""} />
        </div>
      )}
    </AuthLayout>
  );
}

function SecondStep({ data }: { data: FormErrorData }) {
  const { t } = useTranslation("account");
  const busy = usePending();
  const values = data.values ?? {};
  // The first answer's message is the step's own intro, not a refusal.
  const refusal = data.errors ? data : undefined;
  return (
    <FieldsForm id="login-code-form" data={refusal} className="stack">
      <input type="hidden" name="challenge" value={values.challenge} />
      <input type="hidden" name="email" value={values.email ?? ""} />
      <input type="hidden" name="redirectFrom" value={values.redirectFrom ?? ""} />
      <p>{t("two_factor.login_intro", { email: values.email ?? "" })}</p>
      <Field
        name="code"
        label={t("two_factor.code")}
        hint={t("two_factor.code_hint")}
        error={refusal?.errors?.code}
        autoComplete="one-time-code"
        inputMode="text"
        required
      />
      <SubmitButton
        busy={busy}
        label={t("two_factor.login_submit")}
        busyLabel={t("two_factor.login_busy")}
        className="btn btn-primary btn-block"
      />
      <Link to="/login" className="link">
        {t("two_factor.login_restart")}
      </Link>
    </FieldsForm>
  );
}
