import { createContext, useContext, useState } from "react";
import { useTranslation } from "react-i18next";

// The request id on error pages ("Código do erro: …"), so support can find the request's log
// line. The server renders it (entry.server gives it through this context); the browser, which
// hydrates that page, reads it back from the page once, before hydrating.

/** The id of the request being rendered, given by entry.server; null in the browser. */
export const RequestIdContext = createContext<string | null>(null);

const ATTRIBUTE = "data-error-code";
let fromPage: string | null =
  typeof document === "undefined" ? null : (document.querySelector(`[${ATTRIBUTE}]`)?.getAttribute(ATTRIBUTE) ?? null);

/** "Código do erro: …" under an error page's text, when the request's id is known. */
export function ErrorCode() {
  const { t } = useTranslation("common");
  const fromServer = useContext(RequestIdContext);
  const [code] = useState(() => {
    const found = fromServer ?? fromPage;
    fromPage = null; // the page's code belongs to the page the server rendered, not to a later error
    return found;
  });
  if (!code) return null;
  return (
    <p className="muted small" {...{ [ATTRIBUTE]: code }}>
      {t("errors.code", { code })}
    </p>
  );
}
