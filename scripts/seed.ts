// Seeds the demo data into the configured database (migrating it first).
import { db, migrateToLatest } from "../db";
import { demoAccounts, seedDemo } from "../db/seed";

await migrateToLatest();
const seeded = await seedDemo(db);
console.info(seeded ? `Demo data seeded (password: ${demoAccounts.password}).` : "Database already has users; nothing seeded.");
await db.destroy();
