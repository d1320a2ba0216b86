import { Form, Link, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

/**
 * The confirmation step of a destructive action. The first button is a link to `?confirm=intent`,
 * which shows this panel with the real form, so the action is confirmed with or without
 * JavaScript; the action refuses the intent unless `confirmed=1` came with it.
 */
export function ConfirmPanel({
  intent,
  title,
  text,
  confirmLabel,
  cancelHref,
  action,
  children,
  tone = "danger",
}: {
  intent: string;
  title: string;
  text: ReactNode;
  confirmLabel: string;
  cancelHref: string;
  action?: string;
  children?: ReactNode;
  tone?: "danger" | "primary";
}) {
  const { t } = useTranslation("market");
  const busy = useNavigation().state === "submitting";
  return (
    <section className={`card confirm-panel confirm-${tone}`} role="alertdialog" aria-labelledby={`confirm-${intent}-title`}>
      <h3 id={`confirm-${intent}-title`}>{title}</h3>
      <p>{text}</p>
      <Form method="post" action={action} className="stack" preventScrollReset>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="confirmed" value="1" />
        {children}
        <div className="form-actions">
          <Link to={cancelHref} className="btn btn-ghost" preventScrollReset>
            {t("confirm.cancel")}
          </Link>
          <button type="submit" className={`btn btn-${tone}`} disabled={busy}>
            {confirmLabel}
          </button>
        </div>
      </Form>
    </section>
  );
}
