import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { AuthLayout } from "~/components/accounts/auth-layout";
import { Alert, SubmitButton } from "~/components/ui/form";
import { titleMeta } from "~/lib/meta";
import { usePending } from "~/lib/pending";
import {
  describeSavedSearchUnsubscribe,
  unsubscribeSavedSearch,
  type UnsubscribeState,
} from "~/services/discovery/saved-searches.server";
import { unsubscribeAnswer, type UnsubscribeData } from "~/web/unsubscribe.server";
import { tokenPageHeaders } from "~/web/security.server";

// The link at the foot of a saved search's digest (docs/product.md, "Buscas salvas e alertas"):
// no sign-in, the signed token names the search. GET asks (a link scanner opening it changes
// nothing); POST turns the search's e-mails off, from the page's button or a mail program's own
// (RFC 8058 one-click). The search stays saved. A token that does not check out: 400.

export const headers = tokenPageHeaders;

export const meta = titleMeta("titles.saved_search_unsubscribe");

type Data = UnsubscribeData<UnsubscribeState>;

export async function loader({ request, params }: LoaderFunctionArgs) {
  return unsubscribeAnswer(request, () => describeSavedSearchUnsubscribe(params.token));
}

export async function action({ request, params }: ActionFunctionArgs) {
  return unsubscribeAnswer(request, () => unsubscribeSavedSearch(params.token));
}

export default function SavedSearchUnsubscribePage() {
  const { t } = useTranslation("market");
  const loaded = useLoaderData<typeof loader>() as Data;
  const acted = useActionData<typeof action>() as Data | undefined;
  const busy = usePending();
  const data = acted ?? loaded;
  const manage = (
    <Link to="/buscas-salvas" className="link">
      {t("saved_searches.unsubscribe.manage")}
    </Link>
  );
  if (!data.ok) {
    return (
      <AuthLayout title={t("saved_searches.unsubscribe.invalid_title")} footer={manage}>
        <Alert type="danger">{data.message}</Alert>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={t("unsubscribe.title")} footer={manage}>
      {acted?.ok ? (
        <Alert type="success">{t("saved_searches.unsubscribe.done", { name: data.name })}</Alert>
      ) : data.unsubscribed ? (
        <Alert type="success">{t("saved_searches.unsubscribe.already", { name: data.name })}</Alert>
      ) : (
        <Form method="post" className="stack">
          <p>{t("saved_searches.unsubscribe.confirm", { name: data.name })}</p>
          <p className="muted">{t("saved_searches.unsubscribe.hint")}</p>
          <SubmitButton
            busy={busy}
            label={t("saved_searches.unsubscribe.submit")}
            className="btn btn-primary btn-block"
          />
        </Form>
      )}
    </AuthLayout>
  );
}
