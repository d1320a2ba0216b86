import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Icon } from "~/components/ui/icons";

// Apart from the conversation (./thread): every page's top bar shows this badge, only the
// conversation page needs the thread.

/**
 * The top bar's count of unread messages, leading to the inbox's unread conversations; nothing when
 * all is read (the sidebar's "Mensagens" leads to the inbox), so a phone's top bar keeps its room.
 */
export function MessagesBadge({ unread }: { unread: { total: number } }) {
  const { t } = useTranslation("market");
  if (!unread.total) return null;
  // The name holds the count as shown ("99+" past 99), so speech input can say what it sees.
  const label = unread.total > 99 ? t("messages.unread_capped") : t("messages.unread", { count: unread.total });
  return (
    <Link to="/mensagens?filter=unread" className="icon-button messages-link" title={label} aria-label={label}>
      <Icon name="chat" />
      <span className="messages-count">{unread.total > 99 ? "99+" : unread.total}</span>
    </Link>
  );
}
