import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/lib/format";
import { noticeMoney, type ModerationDetail } from "~/lib/moderation";
import { formatMoney } from "~/lib/money";
import { notificationTarget } from "~/lib/notifications";
import { Icon } from "~/components/ui/icons";

export type NotificationItem = {
  id: string;
  kind: string;
  application_id: string | null;
  opportunity_uuid: string | null;
  opportunity_title: string | null;
  actor: { display_name: string | null } | null;
  detail?: ModerationDetail | null;
  created_at: string;
  read_at: string | null;
};

export function useNotificationText() {
  const { t, i18n } = useTranslation("market");
  return (n: NotificationItem) => {
    // A notice about a ready-made service carries its title (no opportunity holds it).
    const title = n.opportunity_title ?? n.detail?.service_title ?? "";
    return t(`notifications.kinds.${n.kind}`, {
      name: n.actor?.display_name ?? t("notifications.someone"),
      title,
      // Notices of moderation: what it was about, the operator's reason, until when.
      what: n.detail?.what ? t(`moderation.what.${n.detail.what}`, { title }) : "",
      reason: n.detail?.reason ?? "",
      until: n.detail?.until ? formatDateTime(n.detail.until, i18n.language) : "",
      money: noticeMoney(n.detail, t, (cents) => formatMoney(cents, i18n.language)),
      milestone: n.detail?.milestone ?? "",
      amount: n.detail?.amount_cents === undefined ? "" : formatMoney(n.detail.amount_cents, i18n.language),
      package: n.detail?.package ?? "",
    });
  };
}

/**
 * One notification as a button: posting it marks it read and goes on to its application, so
 * opening works the same with or without JavaScript.
 */
export function NotificationEntry({ item, className = "" }: { item: NotificationItem; className?: string }) {
  const { i18n } = useTranslation("market");
  const text = useNotificationText();
  return (
    <Form method="post" action="/notifications" className={`notif ${item.read_at ? "read" : "unread"} ${className}`}>
      <input type="hidden" name="intent" value="open" />
      <input type="hidden" name="id" value={item.id} />
      <input type="hidden" name="to" value={notificationTarget(item)} />
      <button type="submit" className="notif-button">
        {!item.read_at ? <span className="notif-dot" aria-hidden="true" /> : null}
        <span className="notif-text">{text(item)}</span>
        <time className="notif-time" dateTime={item.created_at}>
          {formatDateTime(item.created_at, i18n.language)}
        </time>
      </button>
    </Form>
  );
}

/** The bell in the top bar: the unread count, and the latest notifications in a dropdown. */
export function NotificationBell({ unread, latest }: { unread: number; latest: NotificationItem[] }) {
  const { t } = useTranslation("market");
  const location = useLocation();
  // The name holds the count as shown ("99+" past 99), so speech input can say what it sees; not
  // in parentheses, which accessible-name checks (axe 4.14) leave out of the name they compare.
  const count = unread > 99 ? t("notifications.unread_capped") : t("notifications.unread", { count: unread });
  const label = unread ? t("notifications.bell_with_count", { unread: count }) : t("notifications.bell");
  return (
    <details className="bell-menu" key={location.key}>
      <summary className="icon-button" title={label} aria-label={label}>
        <Icon name="bell" />
        {unread ? <span className="bell-count">{unread > 99 ? "99+" : unread}</span> : null}
      </summary>
      <div className="menu bell-dropdown">
        <div className="bell-head">
          <strong>{t("notifications.title")}</strong>
          {unread ? <span className="muted small">{t("notifications.unread", { count: unread })}</span> : null}
        </div>
        {latest.length ? (
          <div className="bell-list">
            {latest.map((n) => (
              <NotificationEntry key={n.id} item={n} />
            ))}
          </div>
        ) : (
          <p className="muted bell-empty">{t("notifications.empty")}</p>
        )}
        <div className="bell-foot">
          {unread ? (
            <Form method="post" action="/notifications">
              <input type="hidden" name="intent" value="read_all" />
              <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
              <button type="submit" className="link-button">
                {t("notifications.mark_all")}
              </button>
            </Form>
          ) : (
            <span />
          )}
          <Link to="/notifications" className="link">
            {t("notifications.see_all")}
          </Link>
        </div>
      </div>
    </details>
  );
}
