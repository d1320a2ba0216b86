import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * The confirmation step of a destructive action. The first button is a link to `?confirm=intent`,
 * which shows this panel with the real form, so the action is confirmed with or without
 * JavaScript; the action refuses the intent unless `confirmed=1` came with it. Its texts are
 * the market keys `confirm.<intent>_title`, `_text` and `_button`.
 */
export function ConfirmPanel({ intent, cancelHref, children }: { intent: string; cancelHref: string; children?: ReactNode }) {
  const { t } = useTranslation("market");
  const busy = useNavigation().state === "submitting";
  return (
    <section className="card confirm-panel confirm-danger" role="alertdialog" aria-labelledby={`confirm-${intent}-title`}>
      <h2 id={`confirm-${intent}-title`}>{t(`confirm.${intent}_title`)}</h2>
      <p>{t(`confirm.${intent}_text`)}</p>
      <Form method="post" className="stack" preventScrollReset>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="confirmed" value="1" />
        {children}
        <div className="form-actions">
          <Link to={cancelHref} className="btn btn-ghost" preventScrollReset>
            {t("confirm.cancel")}
          </Link>
          <button type="submit" className="btn btn-danger" disabled={busy}>
            {t(`confirm.${intent}_button`)}
          </button>
        </div>
      </Form>
    </section>
  );
}
