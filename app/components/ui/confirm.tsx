import { Link, useActionData, useNavigate } from "@remix-run/react";
import { FieldsForm } from "~/components/ui/form";
import type { FormErrorData } from "~/web/errors.server";
import { useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFocusTrap } from "~/lib/focus-trap";
import { usePending } from "~/lib/pending";

/**
 * The confirmation step of a destructive or binding action (one that hires, or ends a contract).
 * The first button is a link to `?confirm=intent`, which shows this panel with the real form, so
 * the action is confirmed with or without JavaScript; the action refuses the intent unless
 * `confirmed=1` came with it. Its texts are the market keys `confirm.<intent>_title`, `_text` and
 * `_button` (with `params`); `facts` lists what the move settles (the terms, the amount), one line
 * each, for the page to state its own consequences.
 *
 * With JavaScript it holds the keyboard while open, as a dialog does: focus moves into it, Tab
 * stays inside, Escape cancels, and focus goes back to the button that opened it.
 */
export function ConfirmPanel({
  intent,
  cancelHref,
  params,
  facts = [],
  tone = "danger",
  children,
}: {
  intent: string;
  cancelHref: string;
  params?: Record<string, unknown>;
  facts?: string[];
  /** danger: something is lost; primary: something is agreed (a hire, an approval). */
  tone?: "danger" | "primary";
  children?: ReactNode;
}) {
  const { t } = useTranslation("market");
  const busy = usePending(intent);
  const navigate = useNavigate();
  const panel = useRef<HTMLElement>(null);
  // Its fields' problems (the reason asked for) in its own summary; a refusal of the move itself
  // (the state changed meanwhile) is the page's message.
  const data = useActionData<FormErrorData>();
  const refused = data?.values?.intent === intent && data.errors ? data : null;
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
      className={`card confirm-panel confirm-${tone}`}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={`confirm-${intent}-title`}
      aria-describedby={`confirm-${intent}-text`}
      tabIndex={-1}
    >
      <h2 id={`confirm-${intent}-title`}>{t(`confirm.${intent}_title`, params)}</h2>
      <div id={`confirm-${intent}-text`}>
        <p>{t(`confirm.${intent}_text`, params)}</p>
        {facts.length ? (
          <ul className="confirm-facts">
            {facts.map((fact) => (
              <li key={fact}>{fact}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <FieldsForm id={`confirm-${intent}-form`} data={refused} className="stack" preventScrollReset>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="confirmed" value="1" />
        {children}
        <div className="form-actions">
          <Link to={cancelHref} className="btn btn-ghost" preventScrollReset>
            {t("confirm.cancel")}
          </Link>
          <button type="submit" className={`btn btn-${tone}`} disabled={busy}>
            {t(`confirm.${intent}_button`, params)}
          </button>
        </div>
      </FieldsForm>
    </section>
  );
}
