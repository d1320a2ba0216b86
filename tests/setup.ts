import { migrateToLatest } from "../db";

await migrateToLatest();
