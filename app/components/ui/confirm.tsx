import { Form, Link, useNavigate } from "@remix-run/react";
import { useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFocusTrap } from "~/lib/focus-trap";
import { usePending } from "~/lib/pending";

/**
 * The confirmation step of a destructive action. The first button is a link to `?confirm=intent`,
 * which shows this panel with the real form, so the action is confirmed with or without
 * JavaScript; the action refuses the intent unless `confirmed=1` came with it. Its texts are
 * the market keys `confirm.<intent>_title`, `_text` and `_button`.
 *
 * With JavaScript it holds the keyboard while open, as a dialog does: focus moves into it, Tab
 * stays inside, Escape cancels, and focus goes back to the button that opened it.
 */
export function ConfirmPanel({
  intent,
  cancelHref,
  children,
}: {
  intent: string;
  cancelHref: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation("market");
  const busy = usePending(intent);
  const navigate = useNavigate();
  const panel = useRef<HTMLElement>(null);
  const opener = `${cancelHref}?confirm=${intent}`;
  useFocusTrap(panel, true, {
    onEscape: () => navigate(cancelHref, { preventScrollReset: true }),
    returnTo: () =>
      [...document.querySelectorAll<HTMLAnchorElement>("a[href]")].find((a) => a.getAttribute("href") === opener) ??
      document.getElementById("content"),
  });
  return (
    <section
      ref={panel}
      className="card confirm-panel confirm-danger"
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={`confirm-${intent}-title`}
      aria-describedby={`confirm-${intent}-text`}
      tabIndex={-1}
    >
      <h2 id={`confirm-${intent}-title`}>{t(`confirm.${intent}_title`)}</h2>
      <p id={`confirm-${intent}-text`}>{t(`confirm.${intent}_text`)}</p>
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
