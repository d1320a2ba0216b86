import type { ActionFunctionArgs } from "@remix-run/node";
import { LIMITS } from "~/lib/limits";
import { Link, useActionData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "~/components/accounts/auth-layout";
import { loginHref } from "~/components/discovery/public-frame";
import { EmailField, PasswordField } from "~/components/accounts/fields";
import { Field, fieldsOf, FieldsForm, SubmitButton } from "~/components/ui/form";
import { titleMeta } from "~/lib/meta";
import { registerAndSignIn } from "~/services/accounts/accounts.server";
import { getRequestT } from "~/web/i18n.server";
import { redirectWithSuccess } from "~/web/toast.server";
import { clientOf } from "~/web/client.server";
import { usePending } from "~/lib/pending";
import { visitorFormAction } from "~/web/page-form.server";
import { browserSignIn } from "~/web/session.server";
import { safeRedirect } from "~/web/auth.server";

export const meta = titleMeta("titles.register");

export { visitorLoader as loader } from "~/web/auth.server";

export async function action(args: ActionFunctionArgs) {
  return visitorFormAction(args, async ({ request, values }) => {
    // Signed in at once, back where the visitor was (a public page, a list) or home; the banner
    // of every page and the toast say to confirm the e-mail.
    const { user, token } = await registerAndSignIn(values, await clientOf(request));
    const headers = await browserSignIn(request, token);
    const { t } = await getRequestT(request);
    return redirectWithSuccess(
      safeRedirect(values.redirectFrom, "/"),
      t("registered_signed_in", { email: user.email }),
      {
        headers,
      },
    );
  });
}

export default function RegisterPage() {
  const { t } = useTranslation();
  const data = useActionData<typeof action>();
  const busy = usePending();
  const [params] = useSearchParams();
  // From a public page: back there once registered, the account type it suggests chosen.
  const redirectFrom = params.get("redirectFrom") ?? data?.values?.redirectFrom ?? "";
  const suggested = params.get("tipo") === "merchant" ? "merchant" : "freelancer";
  const accountType = data?.values?.account_type ?? suggested;
  const field = fieldsOf(data);
  return (
    <AuthLayout
      title={t("auth.register_title")}
      subtitle={t("auth.register_subtitle")}
      footer={
        <>
          {t("auth.have_account")}{" "}
          <Link to={redirectFrom ? loginHref(redirectFrom) : "/login"} className="link">
            {t("auth.sign_in_link")}
          </Link>
        </>
      }
    >
      <FieldsForm id="register-form" data={data} className="stack">
        <input type="hidden" name="redirectFrom" value={redirectFrom} />
        <fieldset id="account_type" className={`field choice-group${data?.errors?.account_type ? " has-error" : ""}`}>
          <legend>{t("fields.account_type")}</legend>
          <div className="choices">
            {(["freelancer", "merchant"] as const).map((type) => (
              <label key={type} className="choice">
                <input type="radio" name="account_type" value={type} defaultChecked={accountType === type} />
                <span>
                  <strong>{t(`account_types.${type}`)}</strong>
                  <small>{t(`account_types.${type}_hint`)}</small>
                </span>
              </label>
            ))}
          </div>
          {data?.errors?.account_type ? <p className="field-error">{data.errors.account_type}</p> : null}
        </fieldset>
        <Field
          {...field("full_name")}
          label={t("fields.full_name")}
          autoComplete="name"
          required
          maxLength={LIMITS.full_name.max}
        />
        <Field
          {...field("display_name")}
          label={t("fields.display_name_optional")}
          autoComplete="nickname"
          maxLength={LIMITS.display_name.max}
        />
        <EmailField data={data} />
        <PasswordField data={data} fresh />
        <p className="muted small">
          {t("legal.register_consent")}{" "}
          <Link to="/termos" className="link">
            {t("legal.terms")}
          </Link>{" "}
          {t("legal.and")}{" "}
          <Link to="/privacidade" className="link">
            {t("legal.privacy")}
          </Link>
          .
        </p>
        <SubmitButton
          busy={busy}
          label={t("actions.create_account")}
          busyLabel={t("actions.creating_account")}
          className="btn btn-primary btn-block"
        />
      </FieldsForm>
    </AuthLayout>
  );
}
