import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/ui/icons";

// Apart from the conversation (./thread): every page's top bar shows this badge, only the
// conversation page needs the thread.

/**
 * The top bar's way to the inbox: the count of unread messages when there are any (leading to the
 * conversations that hold them), else just the icon.
 */
export function MessagesBadge({ unread }: { unread: { total: number } }) {
  const { t } = useTranslation("market");
  // The name holds the count as shown ("99+" past 99), so speech input can say what it sees.
  const label = !unread.total
    ? t("inbox.link")
    : unread.total > 99
      ? t("messages.unread_capped")
      : t("messages.unread", { count: unread.total });
  return (
    <Link
      to={unread.total ? "/mensagens?filter=unread" : "/mensagens"}
      className="icon-button messages-link"
      title={label}
      aria-label={label}
    >
      <Icon name="chat" />
      {unread.total ? <span className="messages-count">{unread.total > 99 ? "99+" : unread.total}</span> : null}
    </Link>
  );
}
