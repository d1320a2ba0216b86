import type { MetaDescriptor, MetaFunction, TypedResponse } from "@remix-run/node";
import { errorTitle } from "./market-meta";

/** What a public page's preview (Open Graph, Twitter card) and canonical link say. */
export type Seo = {
  title: string;
  description: string;
  /** Absolute, from APP_URL. */
  canonical: string;
  image: string;
  /** og:locale: pt_BR, en_US or es_LA. */
  locale: string;
  type: "website" | "profile";
  /** A photo makes a small card; the site's wide image a large one. */
  card: "summary" | "summary_large_image";
};

/** The head of a public page: title, description, canonical link, Open Graph and Twitter card. */
export function seoMeta(seo: Seo): MetaDescriptor[] {
  const title = `${seo.title} | Freela`;
  return [
    { title },
    { name: "description", content: seo.description },
    { tagName: "link", rel: "canonical", href: seo.canonical },
    { property: "og:site_name", content: "Freela" },
    { property: "og:type", content: seo.type },
    { property: "og:title", content: seo.title },
    { property: "og:description", content: seo.description },
    { property: "og:url", content: seo.canonical },
    { property: "og:image", content: seo.image },
    { property: "og:locale", content: seo.locale },
    { name: "twitter:card", content: seo.card },
    { name: "twitter:title", content: seo.title },
    { name: "twitter:description", content: seo.description },
    { name: "twitter:image", content: seo.image },
  ];
}

/** The head of a public list: its preview, and `noindex, follow` while a filter narrows it. */
export const publicListMeta: MetaFunction<() => Promise<TypedResponse<{ seo: Seo; noindex: boolean }>>> = (args) => {
  if (args.error || !args.data) return errorTitle(args);
  const tags = seoMeta(args.data.seo);
  return args.data.noindex ? [...tags, { name: "robots", content: "noindex, follow" }] : tags;
};
