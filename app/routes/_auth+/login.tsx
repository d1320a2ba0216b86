import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "~/components/accounts/auth-layout";
import { EmailField, PasswordField } from "~/components/accounts/fields";
import { FieldsForm, SubmitButton } from "~/components/ui/form";
import { titleMeta } from "~/lib/meta";
import { login } from "~/services/accounts/accounts.server";
import { redirectIfSignedIn, safeRedirect } from "~/web/auth.server";
import { getRequestT } from "~/web/i18n.server";
import { browserSignIn, registeredEmailOf } from "~/web/session.server";
import { redirectWithSuccess } from "~/web/toast.server";
import { displayNameOf } from "~/services/accounts/users.server";
import { clientOf } from "~/web/client.server";
import { usePending } from "~/lib/pending";
import { visitorFormAction } from "~/web/page-form.server";

export const meta = titleMeta("titles.login");

/** A visitor's page; the e-mail of the account just registered in this browser comes filled in. */
export async function loader({ request }: LoaderFunctionArgs) {
  await redirectIfSignedIn(request);
  return json({ registeredEmail: await registeredEmailOf(request) });
}

export async function action(args: ActionFunctionArgs) {
  return visitorFormAction(args, async ({ request, values }) => {
    const { user, token } = await login(values, await clientOf(request));
    const headers = await browserSignIn(request, token);
    const { t } = await getRequestT(request);
    return redirectWithSuccess(
      safeRedirect(values.redirectFrom, "/"),
      t("welcome_back", { name: displayNameOf(user) }),
      {
        headers,
      },
    );
  });
}

export default function LoginPage() {
  const { t } = useTranslation();
  const data = useActionData<typeof action>();
  const { registeredEmail } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const busy = usePending();
  return (
    <AuthLayout
      title={t("auth.login_title")}
      subtitle={t("auth.login_subtitle")}
      footer={
        <>
          {t("auth.no_account")}{" "}
          <Link to="/register" className="link">
            {t("auth.create_account")}
          </Link>
        </>
      }
    >
      <FieldsForm id="login-form" data={data} className="stack">
        <input
          type="hidden"
          name="redirectFrom"
          value={params.get("redirectFrom") ?? data?.values?.redirectFrom ?? ""}
        />
        <EmailField data={data} fallback={registeredEmail ?? undefined} />
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
    </AuthLayout>
  );
}
