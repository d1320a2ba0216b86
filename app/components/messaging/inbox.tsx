import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Avatar } from "~/components/ui/avatar";
import { formatDateTime } from "~/lib/format";
import type { ConversationSummary } from "~/services/messaging/inbox.server";

/** One conversation of the inbox: who, about what, the last message, and what is unread. */
export function ConversationRow({ item }: { item: ConversationSummary }) {
  const { t, i18n } = useTranslation("market");
  const unread = item.unread > 0;
  return (
    <li className={`inbox-row${unread ? " unread" : ""}`}>
      <Avatar user={{ full_name: item.other.display_name, photo_url: item.other.photo_url }} />
      <div className="inbox-main">
        <p className="inbox-head">
          <Link to={`/applications/${item.application_id}/messages`} className="inbox-link">
            <strong>{item.other.display_name}</strong>
            <span className="sr-only">
              {" · "}
              {item.opportunity.title}
            </span>
          </Link>
          <time className="muted small" dateTime={item.last_message.created_at}>
            {formatDateTime(item.last_message.created_at, i18n.language)}
          </time>
        </p>
        <p className="inbox-opportunity muted small" aria-hidden="true">
          {item.opportunity.title}
        </p>
        <p className="inbox-preview">
          {item.last_message.mine ? <span className="muted">{t("inbox.you")} </span> : null}
          {item.last_message.hidden ? <em className="muted">{t("inbox.hidden")}</em> : item.last_message.body}
        </p>
      </div>
      {unread ? (
        <span className="inbox-count">
          <span aria-hidden="true">{item.unread > 99 ? "99+" : item.unread}</span>
          <span className="sr-only">{t("messages.unread", { count: item.unread })}</span>
        </span>
      ) : null}
    </li>
  );
}
