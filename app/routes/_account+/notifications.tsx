import { json, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FormMessage } from "~/components/ui/form";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { NotificationEntry } from "~/components/messaging/notification-bell";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { intentAction, withResult } from "~/web/intent-action.server";
import { listFromUrl } from "~/web/market-forms.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { requireUser, safeRedirect } from "~/web/auth.server";
import { listNotifications, markNotificationsRead } from "~/services/messaging/notifications.server";

export const meta = marketTitleMeta("titles.notifications");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { list } = await listFromUrl(request, ["page"], (q) => listNotifications(user, q));
  return json(list);
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return intentAction(
    request,
    { here: "/notifications" },
    {
      // A notification opened: read, then its page (no toast).
      open: withResult({
        run: async ({ values }) => {
          if (!values.id) return "/notifications";
          await markNotificationsRead(user, [values.id]);
          return safeRedirect(values.to, "/notifications");
        },
        to: (to) => to,
      }),
      read_all: withResult({
        run: async ({ values }) => {
          await markNotificationsRead(user);
          return safeRedirect(values.redirectTo, "/notifications");
        },
        toast: "toasts.read",
        to: (to) => to,
      }),
    },
  );
}

export default function NotificationsPage() {
  const { t } = useTranslation("market");
  const { data, meta, unread_count } = useLoaderData<typeof loader>();
  const refusal = useActionData<typeof action>();
  return (
    <div className="page page-narrow">
      <PageHeader
        title={t("notifications.title")}
        intro={unread_count ? t("notifications.unread", { count: unread_count }) : t("notifications.intro")}
        actions={
          unread_count ? (
            <Form method="post">
              <input type="hidden" name="intent" value="read_all" />
              <input type="hidden" name="redirectTo" value="/notifications" />
              <button type="submit" className="btn btn-secondary">
                {t("notifications.mark_all")}
              </button>
            </Form>
          ) : null
        }
      />
      <FormMessage data={refusal} />
      {data.length ? (
        <section className="card notif-page-list">
          {data.map((n) => (
            <NotificationEntry key={n.id} item={n} />
          ))}
        </section>
      ) : (
        <EmptyState title={t("notifications.empty")} />
      )}
      <Pagination meta={meta} />
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
