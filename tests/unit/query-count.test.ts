import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db, sqlite } from "../../db";
import { createApplication, createOpportunity } from "../../db/factories";
import type { UserRow } from "../../db/schema";
import { call, jsonRequest, signedInUser } from "../helpers";
import { offersFor } from "../market";
import { loader as awaitingLoader } from "~/routes/api.applications.awaiting-confirmation";
import { loader as myApplicationsLoader } from "~/routes/api.my-applications";
import { loader as notificationsLoader } from "~/routes/api.notifications._index";
import { loader as opportunityApplicationsLoader } from "~/routes/api.opportunities.$uuid.applications";
import { loader as opportunitiesLoader } from "~/routes/api.opportunities._index";
import { notify } from "~/services/notifications.server";

// No query inside a loop: every list endpoint runs the same number of SQL statements whether
// it answers 5 items or 50. Statements are counted where Kysely hands them to better-sqlite3.

const ITEMS = 60;

let merchant: { user: UserRow; token: string };
let freelancer: { user: UserRow; token: string };
let firstUuid: string;

beforeAll(async () => {
  merchant = await signedInUser({ account_type: "merchant" });
  freelancer = await signedInUser({ account_type: "freelancer" });
  for (let i = 0; i < ITEMS; i++) {
    const opportunity = await createOpportunity(db, {
      merchant_id: merchant.user.id,
      title: `Site institucional número ${i}`,
      created_at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
    });
    firstUuid ??= opportunity.uuid;
    // Every one has an application of our freelancer (some countered, so both sides await some).
    const status = i % 2 === 0 ? "pending" : "countered";
    const application = await createApplication(db, {
      opportunity,
      freelancer_id: freelancer.user.id,
      status,
      offers: offersFor(status),
    });
    await notify(db, {
      user_id: merchant.user.id,
      kind: "application_received",
      application_id: application.id,
      opportunity_id: opportunity.id,
    });
  }
  // Fifty-five more applicants to the first opportunity, for the owner's list of applications.
  const [first] = await db.selectFrom("opportunities").select("id").where("uuid", "=", firstUuid).execute();
  for (let i = 0; i < 55; i++) await createApplication(db, { opportunity: first });
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs a loader and returns its status, item count and the SQL statements it prepared. */
async function countQueries(
  loader: Parameters<typeof call>[0],
  path: string,
  token: string,
  params: Record<string, string> = {},
) {
  const statements: string[] = [];
  const prepare = sqlite.prepare.bind(sqlite);
  vi.spyOn(sqlite, "prepare").mockImplementation(((source: string) => {
    statements.push(source);
    return prepare(source);
  }) as typeof sqlite.prepare);
  const { status, body } = await call(loader, jsonRequest(path, undefined, { token }), params);
  vi.restoreAllMocks();
  return { status, items: (body?.data ?? []).length as number, statements };
}

const cases: [string, () => [Parameters<typeof call>[0], string, string, Record<string, string>?]][] = [
  ["opportunities (freelancer)", () => [opportunitiesLoader, "/api/opportunities", freelancer.token]],
  ["opportunities (freelancer, search and filters)", () => [
    opportunitiesLoader,
    "/api/opportunities?q=site&category=desenvolvimento&location_type=remote&sort=budget_desc",
    freelancer.token,
  ]],
  ["opportunities (freelancer, mine)", () => [opportunitiesLoader, "/api/opportunities?mine=1", freelancer.token]],
  ["opportunities (merchant)", () => [opportunitiesLoader, "/api/opportunities", merchant.token]],
  ["my applications", () => [myApplicationsLoader, "/api/my-applications", freelancer.token]],
  ["awaiting confirmation (merchant)", () => [awaitingLoader, "/api/applications/awaiting-confirmation", merchant.token]],
  ["awaiting confirmation (freelancer)", () => [awaitingLoader, "/api/applications/awaiting-confirmation", freelancer.token]],
  ["applications of an opportunity", () => [
    opportunityApplicationsLoader,
    `/api/opportunities/${firstUuid}/applications`,
    merchant.token,
    { uuid: firstUuid },
  ]],
  ["notifications", () => [notificationsLoader, "/api/notifications", merchant.token]],
];

describe("list endpoints run a fixed number of queries", () => {
  it.each(cases)("%s: the same at per_page 5 and 50", async (_name, args) => {
    const [loader, path, token, params] = args();
    const join = path.includes("?") ? "&" : "?";
    const small = await countQueries(loader, `${path}${join}per_page=5`, token, params);
    const large = await countQueries(loader, `${path}${join}per_page=50`, token, params);
    expect(small.status).toBe(200);
    expect(large.status).toBe(200);
    // The larger page really holds more rows, so a per-row query would show up.
    expect(small.items).toBe(5);
    expect(large.items).toBeGreaterThan(25);
    expect(large.statements).toEqual(small.statements);
    // The spy sees the session lookup, the count and the page; nothing per row.
    expect(small.statements.length).toBeGreaterThanOrEqual(3);
    expect(small.statements.length).toBeLessThanOrEqual(4);
  });
});
