import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";

export type PageMeta = { page: number; per_page: number; total: number; total_pages: number };

/** The current URL with some query parameters replaced (null removes one). */
export function useHrefWith() {
  const location = useLocation();
  return (changes: Record<string, string | number | null>) => {
    const params = new URLSearchParams(location.search);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === "") params.delete(key);
      else params.set(key, String(value));
    }
    const query = params.toString();
    return location.pathname + (query ? `?${query}` : "");
  };
}

/** Pages 1 … p-1 p p+1 … N, so the bar stays short however long the list is. */
function pageWindow(page: number, total: number): Array<number | "gap"> {
  const wanted = new Set([1, total, page - 1, page, page + 1].filter((p) => p >= 1 && p <= total));
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: Array<number | "gap"> = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1]! > 1) out.push("gap");
    out.push(p);
  });
  return out;
}

/** Plain links: the page lives in the URL, so a list is shareable and works without JavaScript. */
export function Pagination({ meta }: { meta: PageMeta }) {
  const { t } = useTranslation("market");
  const hrefWith = useHrefWith();
  if (meta.total_pages <= 1) return null;
  const { page, total_pages: total } = meta;
  return (
    <nav className="pagination" aria-label={t("pagination.label")}>
      {page > 1 ? (
        <Link className="btn btn-ghost btn-sm" to={hrefWith({ page: page - 1 })} rel="prev">
          ‹ {t("pagination.previous")}
        </Link>
      ) : (
        <span className="btn btn-ghost btn-sm disabled" aria-disabled="true">
          ‹ {t("pagination.previous")}
        </span>
      )}
      <ol className="pagination-pages">
        {pageWindow(page, total).map((p, i) =>
          p === "gap" ? (
            <li key={`gap-${i}`} className="pagination-gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={p}>
              {p === page ? (
                <span className="pagination-page current" aria-current="page">
                  {p}
                </span>
              ) : (
                <Link
                  className="pagination-page"
                  to={hrefWith({ page: p })}
                  aria-label={t("pagination.go_to", { page: p })}
                >
                  {p}
                </Link>
              )}
            </li>
          ),
        )}
      </ol>
      <span className="pagination-summary">{t("pagination.page", { page, total })}</span>
      {page < total ? (
        <Link className="btn btn-ghost btn-sm" to={hrefWith({ page: page + 1 })} rel="next">
          {t("pagination.next")} ›
        </Link>
      ) : (
        <span className="btn btn-ghost btn-sm disabled" aria-disabled="true">
          {t("pagination.next")} ›
        </span>
      )}
    </nav>
  );
}

/** Status tabs for a list: links that set ?status= (or `param`) and go back to page 1. */
export function StatusTabs({
  statuses,
  current,
  label,
  names = "application_status",
  allKey = "applications.all",
  param = "status",
}: {
  statuses: readonly string[];
  current: string | null;
  label: string;
  /** The market keys naming the statuses, and the tab without a filter. */
  names?: string;
  allKey?: string;
  param?: string;
}) {
  const { t } = useTranslation("market");
  const hrefWith = useHrefWith();
  return (
    <nav className="tabs" aria-label={label}>
      <Link
        className={`tab${!current ? " active" : ""}`}
        to={hrefWith({ [param]: null, page: null })}
        aria-current={!current ? "page" : undefined}
      >
        {t(allKey)}
      </Link>
      {statuses.map((status) => (
        <Link
          key={status}
          className={`tab${current === status ? " active" : ""}`}
          to={hrefWith({ [param]: status, page: null })}
          aria-current={current === status ? "page" : undefined}
        >
          {t(`${names}.${status}`)}
        </Link>
      ))}
    </nav>
  );
}
