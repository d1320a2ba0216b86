// Issuing notas fiscais (`npm run bench -- --only nfse`; run.ts starts it in a process of its own):
// 1 000 fee notas, enqueued as settlements enqueue them, issued by drainNotas through the real
// mutual-TLS client against the Sefin stand-in, which runs in another process so that its work
// (XSD, signature checks) is not counted. Prints the time and the CPU of this process per nota
// (process.cpuUsage: the DPS built, signed, validated against the XSD, sent, the outcome stored).
// SQLite, in a temporary directory.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import forge from "node-forge";

const NOTAS = Number(process.env.BENCH_NOTAS ?? 1_000);

const dir = mkdtempSync(join(os.tmpdir(), "freela-bench-nfse-"));
process.env.DATABASE_PATH = join(dir, "freela.db");
process.env.UPLOADS_DIR = join(dir, "uploads");
process.env.BCRYPT_COST = "4";
process.env.SEED_DEMO = "0";

const log = (message: string) => console.info(`[bench] ${message}`);

async function standIn() {
  const tsx = join(process.cwd(), "node_modules/tsx/dist/cli.mjs");
  const child = spawn(process.execPath, [tsx, "bench/nfse-standin.ts"], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const { value: line } = await lines.next();
  const info = JSON.parse(String(line)) as { url: string; ca: string; caCertificate: string; caKey: string };
  const ca = {
    cert: forge.pki.certificateFromPem(info.caCertificate),
    key: forge.pki.privateKeyFromPem(info.caKey) as forge.pki.rsa.PrivateKey,
    certificatePem: info.caCertificate,
  };
  return { ...info, testCa: ca, stop: () => child.stdin.end() };
}

async function main() {
  const { db, migrateToLatest } = await import("../db");
  const { createApplication, createOpportunity, createUser, createVerifiedIdentity } = await import("../db/factories");
  const { newMilestone } = await import("../db/contracts");
  const { drainNotas, enqueueNotas } = await import("../app/services/fiscal/notas.server");
  const { PLATFORM_ISSUER } = await import("../app/services/fiscal/issuers.server");
  const { sefinClient } = await import("../app/services/fiscal/sefin-client.server");
  const { insertIssuer } = await import("../tests/support/fiscal-issuers");
  await migrateToLatest();

  const sefin = await standIn();
  try {
    await insertIssuer(PLATFORM_ISSUER, { ca: sefin.testCa });
    const merchant = await createUser(db, { account_type: "merchant" });
    const freelancer = await createUser(db, { account_type: "freelancer" });
    await createVerifiedIdentity(db, freelancer.id);
    const opportunity = await createOpportunity(db, { merchant_id: merchant.id });
    const hire = await createApplication(db, { opportunity, status: "accepted", freelancer_id: freelancer.id });
    const contract = { id: hire.id, merchant_id: merchant.id, freelancer_id: freelancer.id };
    const at = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < NOTAS; i++) {
        const milestone = newMilestone(
          hire.id,
          {
            seq: i + 2,
            title: `Etapa ${i + 2}`,
            amount_cents: 100_000,
            days: 7,
            status: "released",
            proposed_by: null,
          },
          at,
        );
        await trx.insertInto("milestones").values(milestone).execute();
        await enqueueNotas(trx, contract, milestone, { releasedCents: 100_000, feeCents: 10_000 }, at);
      }
    });
    log(`${NOTAS.toLocaleString("en")} notas enqueued`);

    const client = sefinClient({ baseUrl: sefin.url, ca: sefin.ca, timeoutMs: 30_000 });
    const cpu = process.cpuUsage();
    const started = performance.now();
    const total = { issued: 0, rejected: 0, retried: 0, failed: 0 };
    for (;;) {
      const r = await drainNotas({ client });
      for (const k of Object.keys(total) as (keyof typeof total)[]) total[k] += r[k];
      if (r.issued + r.rejected + r.retried + r.failed === 0) break;
    }
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const numbers = await db.selectFrom("nfse_documents").select("number").where("status", "=", "issued").execute();
    console.info("");
    console.info(
      `nfse: ${total.issued.toLocaleString("en")} notas issued through drainNotas against the stand-in in ` +
        `${seconds.toFixed(1)} s (${((seconds * 1000) / NOTAS).toFixed(1)} ms per nota); CPU of the issuing process ` +
        `${((used.user + used.system) / 1000 / NOTAS).toFixed(2)} ms per nota ` +
        `(user ${(used.user / 1000 / NOTAS).toFixed(2)}, system ${(used.system / 1000 / NOTAS).toFixed(2)}); ` +
        `${total.rejected} rejected, ${total.retried} retried, ${total.failed} failed; ` +
        `${new Set(numbers.map((n) => n.number)).size} distinct DPS numbers`,
    );
  } finally {
    sefin.stop();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
