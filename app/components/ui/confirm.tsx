import { Link, useActionData, useNavigate, useSearchParams } from "@remix-run/react";
import type { FormErrorData } from "~/web/errors.server";
import { useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useFocusTrap } from "~/lib/focus-trap";
import { usePending } from "~/lib/pending";
import { FieldsForm, FormActions } from "./form";

/**
 * The first step of a destructive action: a link to the page with `?confirm=intent` (beside the
 * query `from` may carry), which opens its ConfirmPanel.
 */
export function ConfirmLink({
  from,
  intent,
  className = "btn btn-danger-ghost",
  preventScrollReset,
  title,
  children,
}: {
  from: string;
  intent: string;
  className?: string;
  title?: string;
  preventScrollReset?: boolean;
  children: ReactNode;
}) {
  return (
    <Link
      to={`${from}${from.includes("?") ? "&" : "?"}confirm=${intent}`}
      className={className}
      preventScrollReset={preventScrollReset}
      title={title}
    >
      {children}
    </Link>
  );
}

type PanelProps = {
  intent: string;
  cancelHref: string;
  /** Values for the texts (`confirm.<intent>_title`, `_text`, `_button`). */
  params?: Record<string, unknown>;
  /** What the move settles (the terms, the amount), one line each. */
  facts?: string[];
  /** danger: something is lost; primary: something is agreed (a hire, an approval). */
  tone?: "danger" | "primary";
  /** The namespace of the `confirm.<intent>_*` texts: the marketplace's unless told. */
  ns?: "market" | "services";
  children?: ReactNode;
};

/**
 * The confirmation step of a destructive or binding action (one that hires, or ends a contract), shown while the URL asks for it
 * (`?confirm=intent`) and the action is `allowed`. The first button is a ConfirmLink, which shows
 * this panel with the real form, so the action is confirmed with or without JavaScript; the
 * action refuses the intent unless `confirmed=1` came with it. Its texts are the market keys
 * `confirm.<intent>_title`, `_text` and `_button`.
 *
 * With JavaScript it holds the keyboard while open, as a dialog does: focus moves into it, Tab
 * stays inside, Escape cancels, and focus goes back to the button that opened it.
 */
export function ConfirmPanel({ allowed = true, ...panel }: PanelProps & { allowed?: boolean }) {
  const [params] = useSearchParams();
  return allowed && params.get("confirm") === panel.intent ? <OpenConfirmPanel {...panel} /> : null;
}

function OpenConfirmPanel({
  intent,
  cancelHref,
  params,
  facts = [],
  tone = "danger",
  ns = "market",
  children,
}: PanelProps) {
  const { t } = useTranslation(ns);
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
        <FormActions busy={busy} label={t(`confirm.${intent}_button`, params)} className={`btn btn-${tone}`}>
          <Link to={cancelHref} className="btn btn-ghost" preventScrollReset>
            {t("confirm.cancel", { ns: "market" })}
          </Link>
        </FormActions>
      </FieldsForm>
    </section>
  );
}
