import { LIMITS } from "~/lib/limits";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { FormMessage, TextAreaField } from "~/components/ui/form";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { MessageThread } from "~/components/messaging/thread";
import { Breadcrumb } from "~/components/ui/page-header";
import { formatDate } from "~/lib/format";
import { MAX_MESSAGE_FILES } from "~/lib/market-constants";
import { marketFormError, redirectWithMarketToast } from "~/web/market-forms.server";
import { orRefusal } from "~/web/errors.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { displayNameOf } from "~/lib/users";
import { getApplication } from "~/services/marketplace/applications.server";
import { requireUser } from "~/web/auth.server";
import { MESSAGE_FORM, readFilesForm } from "~/web/bodies.server";
import { listMessages, sendMessage } from "~/services/messaging/messages.server";
import { pageId } from "~/web/params.server";
import { usePending } from "~/lib/pending";

export const meta = marketTitleMeta("titles.messages");

/** How often an open page asks for new messages (JavaScript only; without it, reload). */
const POLL_MS = 10_000;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = pageId(params, "id");
  const application = await orRefusal(getApplication(user, id));
  const conversation = await orRefusal(listMessages(user, id));
  const viewer: "merchant" | "freelancer" = application.freelancer.id === user.id ? "freelancer" : "merchant";
  const other =
    viewer === "merchant" ? displayNameOf(application.freelancer) : application.opportunity.merchant.display_name;
  return json({ id, title: application.opportunity.title, status: application.status, other, viewer, conversation });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = pageId(params, "id");
  let values: Record<string, string> = {};
  try {
    const form = await readFilesForm(request, MESSAGE_FORM);
    values = form.values;
    await sendMessage(user, id, { body: values.body }, form.files);
    return redirectWithMarketToast(request, `/applications/${id}/messages#latest`, "toasts.message_sent");
  } catch (error) {
    return marketFormError(request, error, values);
  }
}

export default function MessagesPage() {
  const { id, title, status, other, viewer, conversation } = useLoaderData<typeof loader>();
  const data = useActionData<typeof action>();
  const { t, i18n } = useTranslation("market");
  const busy = usePending();
  const revalidator = useRevalidator();
  // New messages appear without reloading while the page is in view.
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [revalidator]);
  const errors = data?.errors ?? {};
  return (
    <div className="page">
      <Breadcrumb>
        <Link to={`/applications/${id}`} className="link">
          ← {t("negotiate.application_link")}
        </Link>
        {status === "accepted" ? (
          <Link to={`/contracts/${id}`} className="link">
            {t("application.contract_link")}
          </Link>
        ) : null}
      </Breadcrumb>
      <header className="page-header">
        <div>
          <h2>{t("messages.heading", { name: other ?? "?" })}</h2>
          <p className="muted">{title}</p>
        </div>
      </header>
      <div className="detail-layout">
        <div className="detail-main">
          <section className="card" aria-labelledby="thread-title">
            <h3 id="thread-title" className="sr-only">
              {t("messages.thread")}
            </h3>
            <MessageThread applicationId={id} messages={conversation.data} viewer={viewer} />
          </section>
          {conversation.open ? (
            <section className="card" aria-labelledby="send-title">
              <h3 id="send-title">{t("messages.send_heading")}</h3>
              <FormMessage data={data} />
              <Form method="post" encType="multipart/form-data" className="stack" noValidate preventScrollReset>
                <TextAreaField
                  name="body"
                  label={t("messages.body")}
                  rows={3}
                  maxLength={LIMITS.message_body.max}
                  required
                  defaultValue={data?.values?.body}
                  error={errors.body}
                />
                <div className={`field${errors.files ? " has-error" : ""}`}>
                  <label htmlFor="files">{t("contract.deliver_files")}</label>
                  <input
                    id="files"
                    name="files"
                    type="file"
                    multiple
                    aria-describedby={errors.files ? "files-error" : "files-hint"}
                    aria-invalid={errors.files ? true : undefined}
                  />
                  {errors.files ? (
                    <p className="field-error" id="files-error">
                      {errors.files}
                    </p>
                  ) : (
                    <p className="field-hint" id="files-hint">
                      {t("contract.files_hint", { max: MAX_MESSAGE_FILES })}
                    </p>
                  )}
                </div>
                <div className="form-actions">
                  <button type="submit" className="btn btn-primary" disabled={busy}>
                    {t("messages.send")}
                  </button>
                </div>
              </Form>
              {conversation.closes_at ? (
                <p className="muted small">
                  {t("messages.closes_at", { date: formatDate(conversation.closes_at, i18n.language) })}
                </p>
              ) : null}
            </section>
          ) : (
            <p className="notice notice-info">{t("messages.closed")}</p>
          )}
        </div>
      </div>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
