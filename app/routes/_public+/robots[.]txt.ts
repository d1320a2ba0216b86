import { robotsTxt } from "~/services/discovery/public.server";

export async function loader() {
  return new Response(await robotsTxt(), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=300" },
  });
}
