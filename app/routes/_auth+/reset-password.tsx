import { json, type LoaderFunctionArgs, type ActionFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "~/components/accounts/auth-layout";
import { PasswordField } from "~/components/accounts/fields";
import { Alert, FieldsForm, SubmitButton } from "~/components/ui/form";
import { titleMeta } from "~/lib/meta";
import { findValidReset, resetPassword } from "~/services/accounts/accounts.server";
import { getRequestT } from "~/web/i18n.server";
import { sessionCookie } from "~/web/session.server";
import { redirectWithSuccess } from "~/web/toast.server";
import { usePending } from "~/lib/pending";
import { visitorFormAction } from "~/web/page-form.server";
import { TOKEN_PAGE_HEADERS, tokenPageHeaders } from "~/web/security.server";

/** The link holds the reset token: not stored, not sent on, not indexed. */
export const headers = tokenPageHeaders;

export const meta = titleMeta("titles.reset_password");

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const valid = token.length > 0 && token.length <= 200 && Boolean(await findValidReset(token));
  return json({ token, valid }, { status: valid ? 200 : 400, headers: TOKEN_PAGE_HEADERS });
}

export async function action(args: ActionFunctionArgs) {
  return visitorFormAction(args, async ({ request, values }) => {
    await resetPassword(values);
    const { t } = await getRequestT(request);
    // Every session ended with the reset, this browser's included.
    return redirectWithSuccess("/auth/login", t("reset_done"), {
      headers: { "Set-Cookie": await sessionCookie.serialize("", { maxAge: 0 }) },
    });
  });
}

export default function ResetPasswordPage() {
  const { t } = useTranslation();
  const { token, valid } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const busy = usePending();
  const tokenError = data?.errors?.token;
  return (
    <AuthLayout title={t("auth.reset_title")} subtitle={valid ? t("auth.reset_subtitle") : undefined}>
      {!valid || tokenError ? (
        <>
          <Alert type="danger">{tokenError ?? t("auth.reset_invalid")}</Alert>
          <Link to="/forgot-password" className="btn btn-primary btn-block">
            {t("auth.request_new_link")}
          </Link>
        </>
      ) : (
        <>
          <FieldsForm id="reset-form" data={data} className="stack">
            <input type="hidden" name="token" value={token} />
            <PasswordField data={data} fresh label={t("fields.new_password")} />
            <SubmitButton busy={busy} label={t("actions.save_password")} className="btn btn-primary btn-block" />
          </FieldsForm>
        </>
      )}
    </AuthLayout>
  );
}
