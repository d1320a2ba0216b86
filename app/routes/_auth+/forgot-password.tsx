import { json, type ActionFunctionArgs } from "@remix-run/node";
import { Link, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "~/components/accounts/auth-layout";
import { EmailField } from "~/components/accounts/fields";
import { Alert, FieldsForm, SubmitButton } from "~/components/ui/form";
import { forgotPasswordSchema } from "~/lib/schemas";
import { titleMeta } from "~/lib/meta";
import { requestPasswordReset } from "~/services/accounts/accounts.server";
import { parseInput } from "~/services/platform/errors.server";
import { type FormErrorData } from "~/web/errors.server";
import { getRequestT } from "~/web/i18n.server";
import { clientOf } from "~/web/client.server";
import { usePending } from "~/lib/pending";
import { visitorFormAction } from "~/web/page-form.server";

export const meta = titleMeta("titles.forgot_password");

export { visitorLoader as loader } from "~/web/auth.server";

export async function action(args: ActionFunctionArgs) {
  return visitorFormAction(args, async ({ request, values }) => {
    const { email } = parseInput(forgotPasswordSchema, values);
    // The link in the e-mail comes from APP_URL, never from this request's Host.
    await requestPasswordReset(email, await clientOf(request));
    const { t } = await getRequestT(request);
    return json<{ sent?: string } & FormErrorData>({ sent: t("reset_requested"), values });
  });
}

export default function ForgotPasswordPage() {
  const { t } = useTranslation();
  const data = useActionData<typeof action>();
  const busy = usePending();
  return (
    <AuthLayout
      title={t("auth.forgot_title")}
      subtitle={t("auth.forgot_subtitle")}
      footer={
        <Link to="/login" className="link">
          {t("auth.back_to_login")}
        </Link>
      }
    >
      {data && "sent" in data && data.sent ? <Alert type="success">{data.sent}</Alert> : null}
      <FieldsForm id="forgot-form" data={data && "sent" in data ? null : data} className="stack">
        <EmailField data={data && "sent" in data ? null : data} />
        <SubmitButton busy={busy} label={t("actions.send_reset_link")} className="btn btn-primary btn-block" />
      </FieldsForm>
    </AuthLayout>
  );
}
