import type { Migration, MigrationProvider } from "kysely";
import * as m001 from "./001_initial";
import * as m002 from "./002_opportunities_fts";
import * as m003 from "./003_marketplace_indexes";
import * as m004 from "./004_sort_and_dashboard_indexes";
import * as m005 from "./005_newest_first_indexes";
import * as m006 from "./006_fts_prefix_indexes";

// Listed in code, not read from disk, so the production build carries every migration.
const migrations: Record<string, Migration> = {
  "001_initial": m001,
  "002_opportunities_fts": m002,
  "003_marketplace_indexes": m003,
  "004_sort_and_dashboard_indexes": m004,
  "005_newest_first_indexes": m005,
  "006_fts_prefix_indexes": m006,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};
