import type { LoaderFunctionArgs } from "@remix-run/node";
import { opportunitiesSitemap, profilesSitemap, urlsetXml } from "~/services/discovery/public.server";
import { xmlResponse } from "~/web/public-page.server";

// A page of the sitemap: /sitemap/opportunities-<n>.xml or /sitemap/profiles-<n>.xml; anything
// else, a page past the last, or public pages off: 404.
const FILE = /^(opportunities|profiles)-([1-9]\d{0,5})\.xml$/;

export async function loader({ params }: LoaderFunctionArgs) {
  const match = FILE.exec(params.file ?? "");
  const entries = match
    ? await (match[1] === "opportunities" ? opportunitiesSitemap : profilesSitemap)(Number(match[2]))
    : null;
  if (!entries) {
    return new Response("Não encontrado.", {
      status: 404,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=60" },
    });
  }
  return xmlResponse(urlsetXml(entries));
}
