import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PublicServiceCard, ServiceFilters } from "~/components/catalog/public-services";
import { JsonLd, PublicErrorBoundary, PublicFrame } from "~/components/discovery/public-frame";
import { PublicListCallout, PublicListHeader } from "~/components/discovery/public-lists";
import { EmptyState } from "~/components/ui/page-header";
import { Pagination } from "~/components/ui/pagination";
import { publicListMeta } from "~/lib/public-meta";
import { listPublicServices, servicesForMerchant } from "~/services/catalog/public-services.server";
import { fixedT } from "~/services/platform/i18n.server";
import { queryFromUrl, reaisToCents, readWithoutRefused } from "~/web/market-forms.server";
import { publicHeaders, publicList, readPublic } from "~/web/public-page.server";
import { getOptionalUser } from "~/web/session.server";

// The ready-made services as anyone browses them (docs/product.md, "Serviços prontos"): the
// service layer's list (GET /api/services's) with its filters in the URL, each card leading to
// the service's page. Built like /vagas: cacheable for visitors, not indexed while filtered. With
// public pages off it is 404 for visitors only: the signed-in have no other catalogue.

/** The filters read from the URL; the price in reais, as the visitor typed it. */
const FILTER_FIELDS = ["q", "category", "max_price", "max_days", "min_rating", "verified", "sort", "page"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const filters = queryFromUrl(request, FILTER_FIELDS);
  const page = await readPublic(request, async () => {
    const { input, invalid } = reaisToCents(filters, { max_price: "max_price_cents" });
    // Signed in, the catalogue answers whatever the public pages' switch (listPublicServices).
    const viewer = await getOptionalUser(request);
    const { list, refused } = await readWithoutRefused(input, (query) => listPublicServices(query, viewer));
    return { list, invalid, refused };
  });
  // A filter that is not valid is shown with its message and left out, so the rest still answers.
  const errors: Record<string, string> = {};
  const tm = fixedT(page.lng, "market");
  for (const field of page.found.invalid) errors[field] = tm("filters.money_invalid");
  for (const [field, key] of Object.entries(page.found.refused)) {
    errors[field === "max_price_cents" ? "max_price" : field] =
      field === "max_price_cents" ? tm("filters.money_invalid") : fixedT(page.lng, "services")(key);
  }
  const list = { ...page.found.list, filters, errors };
  const forYou = await servicesForMerchant(page.viewer, filters);
  return json(
    { list, forYou, ...publicList(page, "services", "/servicos", filters, list) },
    { headers: page.cacheHeaders },
  );
}

export const headers = publicHeaders;

export const meta = publicListMeta;

export default function PublicServicesPage() {
  const { list, ld, viewer, forYou } = useLoaderData<typeof loader>();
  const { t } = useTranslation("services");
  const { t: tm } = useTranslation("market");
  const search = new URLSearchParams(list.filters).toString();
  const here = `/servicos${search ? `?${search}` : ""}`;
  const filtered = Object.keys(list.filters).some((k) => k !== "page" && k !== "sort");
  return (
    <PublicFrame signedIn={viewer !== null} here={here}>
      <JsonLd data={ld} />
      <PublicListHeader signedIn={viewer !== null} title={t("public.list_title")} intro={t("public.list_intro")} />
      <PublicListCallout
        here={here}
        signedIn={viewer !== null}
        text={t("public.list_callout")}
        accountType="merchant"
      />
      {forYou?.length ? (
        // "Para você": services with the skills of the merchant's opportunities (no filter set).
        <section className="stack" aria-labelledby="services-for-you">
          <h2 id="services-for-you">{t("public.for_you_title")}</h2>
          <p className="muted">{t("public.for_you_intro")}</p>
          <div className="opp-list">
            {forYou.map((item) => (
              <PublicServiceCard key={item.id} item={item} />
            ))}
          </div>
        </section>
      ) : null}
      <ServiceFilters filters={list.filters} errors={list.errors} />
      <h2 className="list-count muted" aria-live="polite">
        {list.meta.total_capped
          ? t("public.count_capped", { count: list.meta.total })
          : t("public.count", { count: list.meta.total })}
      </h2>
      {list.data.length ? (
        <div className="opp-list">
          {list.data.map((item) => (
            <PublicServiceCard key={item.id} item={item} />
          ))}
        </div>
      ) : (
        <EmptyState
          title={t("public.empty_title")}
          text={filtered ? tm("list.empty_filtered") : t("public.empty_text")}
        />
      )}
      <Pagination meta={list.meta} />
    </PublicFrame>
  );
}

export const ErrorBoundary = PublicErrorBoundary;
