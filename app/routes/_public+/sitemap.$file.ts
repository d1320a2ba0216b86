import type { LoaderFunctionArgs } from "@remix-run/node";
import {
  opportunitiesSitemap,
  pagesSitemapXml,
  profilesSitemap,
  servicesSitemap,
  urlsetXml,
} from "~/services/discovery/public.server";
import { xmlResponse } from "~/web/public-page.server";

// A page of the sitemap: /sitemap/pages-1.xml (the home and the public lists),
// /sitemap/opportunities-<n>.xml, /sitemap/profiles-<n>.xml or /sitemap/services-<n>.xml; anything else, a page past the
// last, or public pages off: 404.
const FILE = /^(pages|opportunities|profiles|services)-([1-9]\d{0,5})\.xml$/;

export async function loader({ params }: LoaderFunctionArgs) {
  const match = FILE.exec(params.file ?? "");
  const n = Number(match?.[2]);
  const xml = !match
    ? null
    : match[1] === "pages"
      ? await pagesSitemapXml(n)
      : match[1] === "opportunities"
        ? await opportunitiesSitemap(n)
        : match[1] === "services"
          ? await servicesSitemap(n)
          : await profilesSitemap(n).then((entries) => entries && urlsetXml(entries));
  if (!xml) {
    return new Response("Não encontrado.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=60" },
    });
  }
  return xmlResponse(xml);
}
