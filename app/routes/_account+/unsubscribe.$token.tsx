import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "~/components/accounts/auth-layout";
import { Alert, SubmitButton } from "~/components/ui/form";
import { titleMeta } from "~/lib/meta";
import { describeUnsubscribe, unsubscribe } from "~/services/messaging/email.server";
import { unsubscribeAnswer, type UnsubscribeData } from "~/web/unsubscribe.server";
import { tokenPageHeaders } from "~/web/security.server";
import { usePending } from "~/lib/pending";

// The link at the foot of every e-mail (docs/product.md, e-mail): no sign-in, the signed token names the
// user and the kind. GET asks (a link scanner opening it changes nothing); POST turns the kind
// off, from the page's button or from a mail program's own button (RFC 8058 one-click: a POST of
// "List-Unsubscribe=One-Click" to this address, whose body is not needed). A token that does not
// check out gets a 400 page saying so.

export const headers = tokenPageHeaders;

export const meta = titleMeta("titles.unsubscribe");

type Data = UnsubscribeData<{ kind: string; unsubscribed: boolean }>;

export async function loader({ request, params }: LoaderFunctionArgs) {
  return unsubscribeAnswer(request, () => describeUnsubscribe(params.token));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return unsubscribeAnswer(request, async () => ({ ...(await unsubscribe(params.token)), unsubscribed: true }));
}

export default function UnsubscribePage() {
  const { t } = useTranslation("market");
  const loaded = useLoaderData<typeof loader>() as Data;
  const acted = useActionData<typeof action>() as Data | undefined;
  const busy = usePending();
  const data = acted ?? loaded;
  const settings = (
    <Link to="/pages/profile-setting#email" className="link">
      {t("unsubscribe.settings")}
    </Link>
  );
  if (!data.ok) {
    return (
      <AuthLayout title={t("unsubscribe.invalid_title")} footer={settings}>
        <Alert type="danger">{data.message}</Alert>
      </AuthLayout>
    );
  }
  const kind = t(`email_settings.kinds.${data.kind}`);
  return (
    <AuthLayout title={t("unsubscribe.title")} footer={settings}>
      {acted?.ok ? (
        <Alert type="success">{t("unsubscribe.done", { kind })}</Alert>
      ) : data.unsubscribed ? (
        <Alert type="success">{t("unsubscribe.already", { kind })}</Alert>
      ) : (
        <Form method="post" className="stack">
          <p>{t("unsubscribe.confirm", { kind })}</p>
          <p className="muted">{t("unsubscribe.hint")}</p>
          <SubmitButton busy={busy} label={t("unsubscribe.submit")} className="btn btn-primary btn-block" />
        </Form>
      )}
    </AuthLayout>
  );
}
