import { formFields } from "~/lib/form-fields";
import { messageInputSchema } from "~/lib/market-schemas";
import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormActions, FormCard, TextAreaField } from "~/components/ui/form";
import { FilesField } from "~/components/ui/files-field";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { MessageThread } from "~/components/messaging/thread";
import { ContactNotice } from "~/components/messaging/contact-notice";
import { Breadcrumb, PageHeader } from "~/components/ui/page-header";
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
    const { body, confirm_contact, pending_files } = values;
    await sendMessage(user, id, { body, confirm_contact, pending_files }, form.files);
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
  // New messages appear as they are sent: the live updates (app/lib/live-events.ts) read the
  // page again on each event; without JavaScript, a reload shows them.
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
      <PageHeader title={t("messages.heading", { name: other ?? "?" })} intro={title} />
      <div className="detail-layout">
        <div className="detail-main">
          <section className="card" aria-labelledby="thread-title">
            <h3 id="thread-title" className="sr-only">
              {t("messages.thread")}
            </h3>
            <MessageThread applicationId={id} messages={conversation.data} viewer={viewer} />
          </section>
          {conversation.open ? (
            <FormCard
              name="send"
              clearOnSuccess
              title={t("messages.send_heading")}
              refusal={data}
              encType="multipart/form-data"
              preventScrollReset
              footer={
                conversation.closes_at ? (
                  <p className="muted small">
                    {t("messages.closes_at", { date: formatDate(conversation.closes_at, i18n.language) })}
                  </p>
                ) : null
              }
            >
              <TextAreaField {...formFields(messageInputSchema, data).body} label={t("messages.body")} rows={3} />
              <FilesField error={data?.errors?.files} max={MAX_MESSAGE_FILES} />
              <ContactNotice refusal={data} />
              <FormActions busy={busy} label={t("messages.send")} />
            </FormCard>
          ) : (
            <p className="notice notice-info">{t("messages.closed")}</p>
          )}
        </div>
      </div>
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
