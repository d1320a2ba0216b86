import { Link, isRouteErrorResponse, useLocation, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";

/**
 * A marketplace page that cannot be shown keeps the layout around it: a missing (or not yours)
 * opportunity or application reads as the not-found page, anything else as the generic error.
 */
export function MarketErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  const { pathname } = useLocation();
  if (!isRouteErrorResponse(error)) console.error(error);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const notFound = status === 404;
  // The database out of reach for a moment (503): the server's message says to try again.
  const unavailable =
    status === 503 && isRouteErrorResponse(error) && typeof error.data?.message === "string"
      ? (error.data.message as string)
      : null;
  return (
    <div className="not-found">
      <section className="card narrow center">
        <p className="error-code">{status}</p>
        <h2>{notFound ? t("not_found.title") : t("errors.generic_title")}</h2>
        <p className="muted">
          {notFound ? t("not_found.text", { path: pathname }) : (unavailable ?? t("errors.generic_text"))}
        </p>
        <Link to="/" className="btn btn-primary">
          {t("not_found.back_home")}
        </Link>
      </section>
    </div>
  );
}
