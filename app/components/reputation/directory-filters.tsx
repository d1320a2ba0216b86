import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormActions } from "~/components/ui/form";
import { DIRECTORY_SORTS, defaultDirectorySort, MIN_RATINGS } from "~/lib/directory";
import { formatRating } from "~/lib/format";
import { LIMITS } from "~/lib/limits";

/**
 * The directory's filters (the signed-in one and the visitors'): a GET form, so every search is
 * a URL, shareable and working without JavaScript. `clearTo` is the list without filters.
 */
export function DirectoryFilters({ filters, clearTo }: { filters: Record<string, string>; clearTo: string }) {
  const { t, i18n } = useTranslation();
  const filtered = Object.keys(filters).some((k) => k !== "page" && k !== "sort");
  return (
    <Form method="get" className="card filters directory-filters" role="search" aria-label={t("directory.label")}>
      <div className="field">
        <label htmlFor="d-q">{t("directory.q")}</label>
        <input
          id="d-q"
          name="q"
          type="search"
          maxLength={LIMITS.search.max}
          defaultValue={filters.q ?? ""}
          placeholder={t("directory.q_placeholder")}
        />
      </div>
      <div className="field">
        <label htmlFor="d-skill">{t("directory.skill")}</label>
        <input id="d-skill" name="skill" maxLength={LIMITS.skill.max} defaultValue={filters.skill ?? ""} />
      </div>
      <div className="field">
        <label htmlFor="d-city">{t("directory.city")}</label>
        <input
          id="d-city"
          name="city"
          maxLength={LIMITS.city.max}
          defaultValue={filters.city ?? ""}
          autoComplete="address-level2"
        />
      </div>
      <div className="field">
        <label htmlFor="d-min-rating">{t("directory.min_rating")}</label>
        <select id="d-min-rating" name="min_rating" defaultValue={filters.min_rating ?? ""}>
          <option value="">{t("directory.min_rating_any")}</option>
          {MIN_RATINGS.map((r) => (
            <option key={r} value={r}>
              {t("directory.min_rating_at_least", { value: formatRating(Number(r), i18n.language) })}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="d-sort">{t("directory.sort")}</label>
        <select id="d-sort" name="sort" defaultValue={filters.sort ?? defaultDirectorySort(filters.q)}>
          {DIRECTORY_SORTS.map((s) => (
            <option key={s} value={s}>
              {t(`directory.sort_${s}`)}
            </option>
          ))}
        </select>
      </div>
      <label className="check directory-remote">
        <input type="checkbox" name="remote" value="1" defaultChecked={filters.remote === "1"} />{" "}
        {t("directory.remote")}
      </label>
      <label className="check directory-remote">
        <input type="checkbox" name="verified" value="1" defaultChecked={filters.verified === "1"} />{" "}
        {t("identity.filter", { ns: "market" })}
      </label>
      <FormActions label={t("directory.apply")}>
        {filtered ? (
          <Link to={clearTo} className="btn btn-ghost">
            {t("directory.clear")}
          </Link>
        ) : null}
      </FormActions>
    </Form>
  );
}
