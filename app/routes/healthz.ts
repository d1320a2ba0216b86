import { json } from "@remix-run/node";
import { databaseAnswers } from "~/services/platform/health.server";

export async function loader() {
  if (await databaseAnswers()) return json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  return json({ status: "unavailable" }, { status: 503, headers: { "Cache-Control": "no-store" } });
}
