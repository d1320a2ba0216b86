import { useTranslation } from "react-i18next";
import { FormMessage, IntentButton } from "~/components/ui/form";
import { formatDateTime } from "~/lib/format";
import type { DataExportJson } from "~/services/accounts/data-export.server";

/**
 * The security settings' "Your data" section (LGPD): ask for a copy of one's data, see whether it
 * is pending, ready (until when) or expired, and download it. A plain form and a plain link, so it
 * works without JavaScript.
 */
export function DataExportSection({
  state,
  refusal,
}: {
  state: DataExportJson | null;
  refusal?: { message?: string };
}) {
  const { t, i18n } = useTranslation("account");
  const when = (iso: string | null) => (iso ? formatDateTime(iso, i18n.language) : "");
  return (
    <section className="card form-card stack" id="data" aria-labelledby="data-title">
      <h2 id="data-title">{t("data_export.title")}</h2>
      <p className="muted">{t("data_export.intro")}</p>
      <FormMessage data={refusal} />
      {state ? (
        <p data-export-status={state.status}>
          <span
            className={`badge ${state.status === "ready" ? "badge-success" : state.status === "pending" ? "badge-warning" : ""}`}
          >
            {t(`data_export.status.${state.status}`)}
          </span>{" "}
          {state.status === "pending"
            ? t("data_export.pending", { at: when(state.created_at) })
            : state.status === "ready"
              ? t("data_export.ready_until", { at: when(state.expires_at) })
              : state.status === "expired"
                ? t("data_export.expired", { at: when(state.expires_at) })
                : t("data_export.failed")}
        </p>
      ) : null}
      {state?.status === "ready" && state.download_url ? (
        <p>
          <a className="btn btn-primary" href={state.download_url} download>
            {t("data_export.download")}
          </a>
        </p>
      ) : null}
      {state?.status === "pending" ? null : (
        <IntentButton intent="data_export" className={state ? "btn btn-ghost" : "btn btn-primary"}>
          {state ? t("data_export.ask_again") : t("data_export.ask")}
        </IntentButton>
      )}
    </section>
  );
}
