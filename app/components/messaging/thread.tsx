import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/lib/format";
import type { Role } from "~/components/marketplace/badges";
import { ReportLink } from "~/components/ui/report-link";

export type MessageData = {
  id: string;
  seq: number;
  author: Role;
  body: string;
  /** Hidden by an operator: both sides see that it was; its author sees why. */
  hidden?: boolean;
  hidden_reason?: string | null;
  created_at: string;
  files: { id: string; name: string; size_bytes: number }[];
};

/** A conversation, oldest first: the viewer's messages on one side, the other's on the other. */
export function MessageThread({
  applicationId,
  messages,
  viewer,
}: {
  applicationId: string;
  messages: MessageData[];
  viewer: Role;
}) {
  const { t, i18n } = useTranslation("market");
  if (messages.length === 0) return <p className="muted">{t("messages.empty")}</p>;
  return (
    <ol className="thread">
      {messages.map((m, i) => (
        <li
          key={m.id}
          className={`thread-item ${m.author === viewer ? "mine" : "theirs"}`}
          id={i === messages.length - 1 ? "latest" : undefined}
        >
          <div className="thread-head">
            <strong>{m.author === viewer ? t("authors.you") : t(`authors.${m.author}`)}</strong>
            <time className="muted small" dateTime={m.created_at}>
              {formatDateTime(m.created_at, i18n.language)}
            </time>
          </div>
          {m.hidden ? (
            <p className="thread-body muted">
              <em>{t("moderation.hidden_message")}</em>
              {m.hidden_reason ? ` ${t("moderation.why", { reason: m.hidden_reason })}` : null}
            </p>
          ) : (
            <p className="thread-body">{m.body}</p>
          )}
          {m.files.length ? (
            <ul className="file-list">
              {m.files.map((f) => (
                <li key={f.id}>
                  <a className="link" href={`/applications/${applicationId}/messages/files/${f.id}`} download={f.name}>
                    {f.name}
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
          {m.author !== viewer && !m.hidden ? (
            <ReportLink type="message" id={m.id} back={`/applications/${applicationId}/messages`} />
          ) : null}
        </li>
      ))}
    </ol>
  );
}
