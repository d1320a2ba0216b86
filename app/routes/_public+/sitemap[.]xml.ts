import { sitemapIndex, sitemapIndexXml } from "~/services/discovery/public.server";
import { xmlResponse } from "~/web/public-page.server";

// The sitemap index: one entry per page of opportunities and of profiles (none when the operator
// turned public pages off).
export async function loader() {
  return xmlResponse(sitemapIndexXml(await sitemapIndex()));
}
