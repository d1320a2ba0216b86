import { formatRating } from "~/lib/format";
import { LIMITS } from "~/lib/limits";
import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MarketErrorBoundary } from "~/components/layout/error-boundary";
import { EmptyState, PageHeader } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { FormActions } from "~/components/ui/form";
import { FreelancerCard } from "~/components/reputation/profile-card";
import { listFromUrl } from "~/web/market-forms.server";
import { marketTitleMeta } from "~/lib/market-meta";
import { requireUser } from "~/web/auth.server";
import { DIRECTORY_SORTS, MIN_RATINGS } from "~/lib/directory";
import { listFreelancers } from "~/services/reputation/profiles.server";

export const meta = marketTitleMeta("titles.freelancers");

const FILTERS = ["q", "skill", "city", "remote", "verified", "min_rating", "sort", "page"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const { list, query } = await listFromUrl(request, FILTERS, listFreelancers);
  return json({ ...list, filters: query });
}

export default function FreelancersPage() {
  const { t, i18n } = useTranslation();
  const { data, meta, filters } = useLoaderData<typeof loader>();
  const filtered = Object.keys(filters).some((k) => k !== "page" && k !== "sort");
  return (
    <div className="page">
      <PageHeader title={t("directory.title")} intro={t("directory.intro")} />
      {/* A GET form: every search is a URL, shareable and working without JavaScript. */}
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
          <select id="d-sort" name="sort" defaultValue={filters.sort ?? "proven"}>
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
            <Link to="/freelancers" className="btn btn-ghost">
              {t("directory.clear")}
            </Link>
          ) : null}
        </FormActions>
      </Form>
      <p className="muted" role="status">
        {t("directory.count", { count: meta.total })}
      </p>
      {data.length ? (
        <ul className="person-grid">
          {data.map((person) => (
            <FreelancerCard key={person.id} person={person} />
          ))}
        </ul>
      ) : (
        <EmptyState title={t("directory.empty")} />
      )}
      <Pagination meta={meta} />
    </div>
  );
}

export const ErrorBoundary = MarketErrorBoundary;
