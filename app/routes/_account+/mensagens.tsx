import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { ConversationRow } from "~/components/messaging/inbox";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination, StatusTabs } from "~/components/ui/pagination";
import { INBOX_FILTERS } from "~/lib/market-schemas";
import { marketTitleMeta } from "~/lib/market-meta";
import { listConversations } from "~/services/messaging/inbox.server";
import { requireUser } from "~/web/auth.server";
import { listFromUrl } from "~/web/market-forms.server";

// The inbox: every conversation of the user, newest message first (docs/product.md, "Mensagens").

export const meta = marketTitleMeta("titles.messages");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { list, query } = await listFromUrl(request, ["filter", "page"], (q) => listConversations(user, q));
  return json({ ...list, filter: query.filter === "unread" ? "unread" : null });
}

export default function InboxPage() {
  const { t } = useTranslation("market");
  const { data, meta, unread_conversations, filter } = useLoaderData<typeof loader>();
  return (
    <div className="page page-narrow">
      <PageHeader
        title={t("inbox.title")}
        intro={unread_conversations ? t("inbox.unread_intro", { count: unread_conversations }) : t("inbox.intro")}
      />
      <StatusTabs
        statuses={INBOX_FILTERS.filter((f) => f !== "all")}
        current={filter}
        label={t("inbox.filters")}
        names="inbox.filter"
        allKey="inbox.filter.all"
        param="filter"
      />
      {data.length ? (
        <ul className="card inbox-list">
          {data.map((item) => (
            <ConversationRow key={item.application_id} item={item} />
          ))}
        </ul>
      ) : (
        <EmptyState title={filter ? t("inbox.empty_unread") : t("inbox.empty")} text={t("inbox.empty_text")} />
      )}
      <Pagination meta={meta} />
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
