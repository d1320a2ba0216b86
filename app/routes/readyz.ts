import { json } from "@remix-run/node";
import { readiness } from "~/services/platform/readiness.server";

// GET /readyz: 200 when this process should get requests, 503 with the reason otherwise
// (stopping, database, migrations, storage). /healthz stays the liveness check.
export async function loader() {
  const state = await readiness();
  const headers = { "Cache-Control": "no-store" };
  if (state.ready) return json({ status: "ready" }, { headers });
  return json(
    { status: "unavailable", reason: state.reason },
    { status: 503, headers: { ...headers, "Retry-After": "5" } },
  );
}
