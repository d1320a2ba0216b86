import { json, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { clearAuthStorage } from "~/components/accounts/auth-mirror";
import { FormMessage } from "~/components/ui/form";
import { titleMeta } from "~/lib/meta";
import { assertSameOrigin } from "~/web/auth.server";
import { formError } from "~/web/errors.server";
import { readForm } from "~/web/bodies.server";
import { getRequestT } from "~/web/i18n.server";
import { endSession, getOptionalUser } from "~/web/session.server";
import { redirectWithSuccess } from "~/web/toast.server";

export const meta = titleMeta("nav.logout");

// Signing out changes state, so it is a POST; a GET only asks for confirmation.
export async function loader({ request }: LoaderFunctionArgs) {
  if (!(await getOptionalUser(request))) throw redirect("/auth/login");
  return json(null);
}

export async function action({ request }: ActionFunctionArgs) {
  assertSameOrigin(request);
  // The form carries no fields, but a body that is not a form is refused like on every other form.
  try {
    await readForm(request);
  } catch (error) {
    return formError(request, error, {});
  }
  const clearCookie = await endSession(request);
  const { t } = await getRequestT(request);
  return redirectWithSuccess("/auth/login", t("logout_done"), { headers: { "Set-Cookie": clearCookie } });
}

export default function LogoutPage() {
  const { t } = useTranslation();
  const refusal = useActionData<typeof action>();
  return (
    <section className="card narrow center">
      <FormMessage data={refusal} />
      <h2>{t("auth.logout_title")}</h2>
      <p className="muted">{t("auth.logout_text")}</p>
      <Form method="post" onSubmit={() => clearAuthStorage()}>
        <button type="submit" className="btn btn-primary">
          {t("nav.logout")}
        </button>
      </Form>
    </section>
  );
}
