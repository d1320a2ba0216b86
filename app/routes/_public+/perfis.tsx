import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { JsonLd, PublicErrorBoundary, PublicFrame } from "~/components/discovery/public-frame";
import { PublicListCallout, PublicListHeader } from "~/components/discovery/public-lists";
import { DirectoryFilters } from "~/components/reputation/directory-filters";
import { FreelancerCard } from "~/components/reputation/profile-card";
import { EmptyState } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { DIRECTORY_FILTERS } from "~/lib/directory";
import { publicListMeta } from "~/lib/public-meta";
import { listPublicProfiles } from "~/services/discovery/public.server";
import { listFromUrl } from "~/web/market-forms.server";
import { publicHeaders, publicList, readPublic } from "~/web/public-page.server";

// The freelancers a visitor may see (docs/product.md, "Páginas públicas"): the directory's filters
// and orders, each card leading to the public profile; a profile kept from visitors is left out.

export async function loader({ request }: LoaderFunctionArgs) {
  const page = await readPublic(request, () => listFromUrl(request, DIRECTORY_FILTERS, listPublicProfiles));
  const { list, query } = page.found;
  return json(
    { ...list, filters: query, ...publicList(page, "profiles", "/perfis", query, list) },
    { headers: page.cacheHeaders },
  );
}

export const headers = publicHeaders;

export const meta = publicListMeta;

export default function PublicProfilesPage() {
  const { data, meta, filters, ld, viewer } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const search = new URLSearchParams(filters).toString();
  const here = `/perfis${search ? `?${search}` : ""}`;
  return (
    <PublicFrame signedIn={viewer !== null} here={here}>
      <JsonLd data={ld} />
      <PublicListHeader
        signedIn={viewer !== null}
        title={t("public.profiles_title")}
        intro={t("public.profiles_intro")}
      />
      <PublicListCallout
        here={here}
        signedIn={viewer !== null}
        text={t("public.profiles_callout")}
        accountType="merchant"
      />
      <DirectoryFilters filters={filters} clearTo="/perfis" />
      <h2 className="list-count muted" aria-live="polite">
        {t("directory.count", { count: meta.total })}
      </h2>
      {data.length ? (
        <ul className="person-grid">
          {data.map((person) => (
            <FreelancerCard key={person.id} person={person} href={person.path} />
          ))}
        </ul>
      ) : (
        <EmptyState title={t("directory.empty")} />
      )}
      <Pagination meta={meta} />
    </PublicFrame>
  );
}

export const ErrorBoundary = PublicErrorBoundary;
