import client from "prom-client";

// The database's share of /metrics (decision 061): how long each statement Kysely runs takes,
// by engine. Apart from metrics.server.ts because db/index.ts feeds it, and that module reads
// the database. Statements run outside Kysely (the compiled session lookup, the list's prepared
// query) are not in it.

const NAME = "freela_db_query_duration_seconds";

/** remix dev loads the build again after each change: the histogram is registered once per process. */
export const queryDuration =
  (client.register.getSingleMetric(NAME) as client.Histogram<"engine"> | undefined) ??
  new client.Histogram({
    name: NAME,
    help: "Time to run a database statement through Kysely, by engine",
    labelNames: ["engine"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
  });
