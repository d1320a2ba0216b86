import type { ActionFunctionArgs } from "@remix-run/node";
import { LIMITS } from "~/lib/limits";
import { Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "~/components/accounts/auth-layout";
import { EmailField, PasswordField } from "~/components/accounts/fields";
import { Field, fieldsOf, FieldsForm, SubmitButton } from "~/components/ui/form";
import { titleMeta } from "~/lib/meta";
import { registerUser } from "~/services/accounts/accounts.server";
import { getRequestT } from "~/web/i18n.server";
import { redirectWithSuccess } from "~/web/toast.server";
import { clientOf } from "~/web/client.server";
import { usePending } from "~/lib/pending";
import { visitorFormAction } from "~/web/page-form.server";
import { registeredEmailCookie } from "~/web/session.server";

export const meta = titleMeta("titles.register");

export { visitorLoader as loader } from "~/web/auth.server";

export async function action(args: ActionFunctionArgs) {
  return visitorFormAction(args, async ({ request, values }) => {
    const user = await registerUser(values, await clientOf(request));
    const { t } = await getRequestT(request);
    // The login page fills in the e-mail just registered.
    const headers = { "Set-Cookie": await registeredEmailCookie.serialize(user.email) };
    return redirectWithSuccess("/auth/login", t("register_success"), { headers });
  });
}

export default function RegisterPage() {
  const { t } = useTranslation();
  const data = useActionData<typeof action>();
  const busy = usePending();
  const accountType = data?.values?.account_type ?? "freelancer";
  const field = fieldsOf(data);
  return (
    <AuthLayout
      title={t("auth.register_title")}
      subtitle={t("auth.register_subtitle")}
      footer={
        <>
          {t("auth.have_account")}{" "}
          <Link to="/login" className="link">
            {t("auth.sign_in_link")}
          </Link>
        </>
      }
    >
      <FieldsForm id="register-form" data={data} className="stack">
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
