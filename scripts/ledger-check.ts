// npm run ledger:check: verifies every invariant of the ledger on the database the environment
// names (DATABASE_PATH or DATABASE_URL) and exits with 1 on any break, listing each.
import { sql } from "kysely";
import { db } from "../db";
import { checkLedger, heldTotal } from "../app/services/payments/ledger.server";

try {
  const problems = await checkLedger();
  const counts = await sql<{ transactions: number; entries: number; fees: number | null }>`SELECT
      (SELECT count(*) FROM ledger_transactions) AS transactions,
      (SELECT count(*) FROM ledger_entries) AS entries,
      (SELECT sum(amount_cents) FROM ledger_entries WHERE account = 'fees') AS fees`.execute(db);
  const held = await heldTotal();
  const { transactions, entries, fees } = counts.rows[0];
  console.info(
    `ledger: ${Number(transactions)} transactions, ${Number(entries)} entries, held ${held.ledger} centavos ` +
      `(funded milestones: ${held.milestones}), fees ${Number(fees ?? 0)} centavos`,
  );
  for (const p of problems) console.error(`BROKEN: ${p.problem}: ${p.id}`);
  console.info(problems.length === 0 ? "ledger: every invariant holds" : `ledger: ${problems.length} problem(s)`);
  await db.destroy();
  process.exit(problems.length === 0 ? 0 : 1);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
}
