// The default route. Signed in: the same list as /opportunities, under its own title ('Minhas
// Oportunidades'). A visitor: the home with the ways to browse the public lists and to sign up.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { VisitorHome } from "~/components/discovery/visitor-home";
import { marketTitleMeta } from "~/lib/market-meta";
import { translateCommon } from "~/lib/meta";
import { publicHeaders, visitorHome } from "~/web/public-page.server";
import { getOptionalUser } from "~/web/session.server";
import OpportunitiesPage, { loader as opportunitiesLoader } from "./opportunities+/_index";

export { ErrorBoundary } from "./opportunities+/_index";

export async function loader(args: LoaderFunctionArgs) {
  if (await getOptionalUser(args.request)) return opportunitiesLoader(args);
  return visitorHome();
}

export const headers = publicHeaders;

const signedInMeta = marketTitleMeta("titles.home");

export const meta: MetaFunction<typeof loader> = (args) => {
  const data = args.data as { home?: boolean } | undefined;
  if (!data?.home) return signedInMeta(args);
  const root = args.matches.find((m) => m.id === "root")?.data as { locale?: string } | undefined;
  return [
    { title: `Freela — ${translateCommon(root?.locale, "home.tagline")}` },
    { name: "description", content: translateCommon(root?.locale, "home.intro") },
  ];
};

export default function Home() {
  const data = useLoaderData<typeof loader>() as unknown as
    { home: true; latest: Parameters<typeof VisitorHome>[0]["latest"]; browse: boolean } | { home?: undefined };
  if (data.home) return <VisitorHome latest={data.latest} browse={data.browse} />;
  return <OpportunitiesPage />;
}
