import { Link, isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorCode } from "~/lib/error-code";

/**
 * A marketplace page that cannot be shown keeps the layout around it: a missing (or not yours)
 * opportunity or application reads as the not-found page, anything else as the generic error.
 */
export function MarketErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // In the browser only: the server logged it already (entry.server handleError), as JSON.
  if (typeof document !== "undefined" && !isRouteErrorResponse(error)) console.error(error);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const notFound = status === 404;
  // The database out of reach for a moment (503): the server's message says to try again.
  const unavailable =
    status === 503 && isRouteErrorResponse(error) && typeof error.data?.message === "string"
      ? (error.data.message as string)
      : null;
  // An opportunity that filled or closed (410): its title and what happened, and where to go on.
  const ended =
    status === 410 && isRouteErrorResponse(error) && error.data?.ended
      ? (error.data.ended as { title: string; status: "filled" | "closed" })
      : null;
  if (ended) {
    return (
      <div className="not-found">
        <section className="card narrow center">
          <p className="error-code">410</p>
          <h2>{ended.title}</h2>
          <p className="muted">{t(`ended_opportunity.${ended.status}`)}</p>
          <Link to="/opportunities" className="btn btn-primary">
            {t("ended_opportunity.see_open")}
          </Link>
        </section>
      </div>
    );
  }
  return (
    <div className="not-found">
      <section className="card narrow center">
        <p className="error-code">{status}</p>
        <h2>{notFound ? t("not_found.title") : t("errors.generic_title")}</h2>
        <p className="muted">
          {notFound ? t("not_found.text", { path: pathname }) : (unavailable ?? t("errors.generic_text"))}
        </p>
        {status >= 500 && <ErrorCode />}
        <Link to="/" className="btn btn-primary">
          {t("not_found.back_home")}
        </Link>
      </section>
    </div>
  );
}
