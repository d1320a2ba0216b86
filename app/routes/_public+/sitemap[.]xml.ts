import { sitemapIndex, sitemapXml } from "~/services/discovery/public.server";
import { xmlResponse } from "~/web/public-page.server";

// The sitemap index: one entry per page of opportunities and of profiles that lists something;
// with none (public pages off, or nothing shown), a urlset of the home page.
export async function loader() {
  return xmlResponse(sitemapXml(await sitemapIndex()));
}
