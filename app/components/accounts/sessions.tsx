import { useTranslation } from "react-i18next";
import { formatDateTime } from "~/lib/format";
import { IntentButton } from "~/components/ui/form";

export type DeviceView = { browser: string | null; os: string | null; mobile: boolean };

export type SessionItem = {
  id: string;
  device: DeviceView;
  ip: string | null;
  place: string | null;
  created_at: string;
  last_used_at: string;
  current: boolean;
};

/** "Chrome · Windows", with the unknown parts said in the page's language. */
export function deviceLabel(device: DeviceView, t: (key: string) => string) {
  return `${device.browser ?? t("security.session_unknown_browser")} · ${device.os ?? t("security.session_unknown_os")}`;
}

export function DeviceName({ device }: { device: DeviceView }) {
  const { t } = useTranslation("account");
  return <>{deviceLabel(device, t)}</>;
}

/** The security settings' list of open sessions: each with its device, address and last use; end one or all others. */
export function SessionsSection({ sessions }: { sessions: SessionItem[] }) {
  const { t, i18n } = useTranslation("account");
  const others = sessions.filter((s) => !s.current);
  return (
    <section className="card form-card stack" id="sessions" aria-labelledby="sessions-title">
      <h2 id="sessions-title">{t("security.sessions_title")}</h2>
      <p className="muted">{t("security.sessions_intro")}</p>
      <ul className="session-list">
        {sessions.map((session) => {
          const label = deviceLabel(session.device, t);
          return (
            <li key={session.id} className="session-item" data-session={session.id}>
              <div>
                <strong>{label}</strong>{" "}
                {session.current ? <span className="badge badge-success">{t("security.session_current")}</span> : null}
                <br />
                <span className="muted">
                  {t("security.session_last_used")}: {formatDateTime(session.last_used_at, i18n.language)} ·{" "}
                  {t("security.session_signed_in")}: {formatDateTime(session.created_at, i18n.language)} ·{" "}
                  {t("security.session_ip")}: {session.ip ?? t("security.session_ip_unknown")}
                  {session.place ? ` · ${t("security.session_place")}: ${session.place}` : null}
                </span>
              </div>
              {session.current ? null : (
                <IntentButton
                  intent="end_session"
                  fields={{ session: session.id }}
                  className="btn btn-danger-ghost btn-sm"
                  label={t("security.session_end_label", { device: label })}
                >
                  {t("security.session_end")}
                </IntentButton>
              )}
            </li>
          );
        })}
      </ul>
      {others.length ? (
        <IntentButton intent="end_others" className="btn btn-ghost">
          {t("security.sessions_end_others")}
        </IntentButton>
      ) : (
        <p className="muted">{t("security.sessions_only_this")}</p>
      )}
    </section>
  );
}
