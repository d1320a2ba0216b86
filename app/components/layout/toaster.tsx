import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/lib/hydrated";

export type Toast = {
  id: string;
  message: string;
  type: "success" | "error" | "warning" | "info";
  duration: number;
};

/**
 * One toast, top right. It fades out by CSS after its duration and closes with the ×
 * (a label over a hidden checkbox), so both work without JavaScript too; with it, the × is a
 * button the keyboard reaches.
 */
export function Toaster({ toast }: { toast: Toast | null }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(toast);
  const hydrated = useHydrated();
  // A new toast replaces the shown one; a page read again without one (the live updates reload
  // the data, app/lib/live-events.ts) leaves it to fade out or be closed.
  useEffect(() => {
    if (toast) setVisible(toast);
  }, [toast]);
  if (!visible) return null;
  const inputId = `toast-${visible.id}`;
  return (
    <div className="toaster" aria-live="polite">
      <input type="checkbox" id={inputId} className="toast-dismiss" aria-hidden="true" tabIndex={-1} />
      <div
        key={visible.id}
        className={`toast toast-${visible.type}`}
        role={visible.type === "error" ? "alert" : "status"}
        data-duration={visible.duration}
        style={{ animationDelay: `${visible.duration}ms` }}
        onAnimationEnd={() => setVisible(null)}
      >
        <span className="toast-message">{visible.message}</span>
        {hydrated ? (
          <button type="button" className="toast-close" title={t("actions.close")} onClick={() => setVisible(null)}>
            <span aria-hidden="true">×</span>
            <span className="sr-only">{t("actions.close")}</span>
          </button>
        ) : (
          <label htmlFor={inputId} className="toast-close" title={t("actions.close")}>
            <span aria-hidden="true">×</span>
            <span className="sr-only">{t("actions.close")}</span>
          </label>
        )}
      </div>
    </div>
  );
}
