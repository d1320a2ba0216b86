import { afterEach, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { deliverContract } from "~/services/contracts/contracts.server";
import { sendMessage } from "~/services/messaging/messages.server";
import { describeBytes, quotaBytes, storageUsage } from "~/services/platform/storage.server";
import { db } from "../../db";
import { PNG_1X1 } from "../support/fixtures";
import { negotiation } from "../support/market";

// The per-user quota of message and delivery files, on both engines.
const quota = config.STORAGE_QUOTA_MB;
afterEach(() => {
  config.STORAGE_QUOTA_MB = quota;
});

/** A PNG (by its content) of `size` bytes. */
const png = (size: number, name = "a.png") => new File([PNG_1X1, new Uint8Array(size - PNG_1X1.length)], name);
const used = async (id: string) =>
  Number(
    (await db.selectFrom("users").select("storage_bytes").where("id", "=", id).executeTakeFirstOrThrow()).storage_bytes,
  );
const setUsed = (id: string, bytes: number) =>
  db.updateTable("users").set({ storage_bytes: bytes }).where("id", "=", id).execute();

describe("storage quota", () => {
  it("counts each user's message files, and refuses past the quota with 413 and what is used, storing nothing", async () => {
    config.STORAGE_QUOTA_MB = 1;
    const { applicant, owner, application } = await negotiation("pending");
    await sendMessage(applicant, application.id, { body: "Um arquivo" }, [png(300_000)]);
    expect(await used(applicant.id)).toBe(300_000);
    expect(await used(owner.id)).toBe(0);
    await setUsed(applicant.id, quotaBytes() - 1000);
    const refused = await sendMessage(applicant, application.id, { body: "Outro" }, [
      png(600),
      png(600, "b.png"),
    ]).catch((e) => e);
    expect(refused).toMatchObject({
      status: 413,
      key: "storage_quota_exceeded",
      fieldErrors: { files: "storage_quota_exceeded" },
    });
    expect(refused.params).toEqual({ used: describeBytes(quotaBytes() - 1000), quota: "1 MB" });
    expect(await used(applicant.id)).toBe(quotaBytes() - 1000);
    const { n } = await db
      .selectFrom("messages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("application_id", "=", application.id)
      .executeTakeFirstOrThrow();
    expect(Number(n)).toBe(1);
    // What still fits goes through; text alone never counts.
    await sendMessage(applicant, application.id, { body: "Cabe" }, [png(1000)]);
    await sendMessage(applicant, application.id, { body: "Só texto" });
    expect(await used(applicant.id)).toBe(quotaBytes());
  });

  it("counts deliveries, and two uploads at once never pass the quota together", async () => {
    config.STORAGE_QUOTA_MB = 1;
    const { applicant, application } = await negotiation("accepted");
    await setUsed(applicant.id, quotaBytes() - 150_000);
    const results = await Promise.allSettled([
      sendMessage(applicant, application.id, { body: "A" }, [png(100_000)]),
      sendMessage(applicant, application.id, { body: "B" }, [png(100_000)]),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    expect(await used(applicant.id)).toBe(quotaBytes() - 50_000);
    expect(
      await deliverContract(applicant, application.id, { message: "Entrega" }, [png(60_000)]).catch((e) => e.key),
    ).toBe("storage_quota_exceeded");
    await deliverContract(applicant, application.id, { message: "Entrega" }, [png(50_000)]);
    expect(await used(applicant.id)).toBe(quotaBytes());
  });

  it("reports usage per user for the operator, the largest first", async () => {
    const a = await negotiation("pending");
    const b = await negotiation("pending");
    await setUsed(a.applicant.id, 5 * 1024 * 1024);
    await setUsed(b.owner.id, 7 * 1024 * 1024);
    const report = await storageUsage();
    const mine = report.filter((r) => [a.applicant.id, b.owner.id].includes(r.id));
    expect(mine.map((r) => [r.id, r.used_bytes, r.quota_bytes])).toEqual([
      [b.owner.id, 7 * 1024 * 1024, quotaBytes()],
      [a.applicant.id, 5 * 1024 * 1024, quotaBytes()],
    ]);
    expect(report.every((r, i) => i === 0 || report[i - 1]!.used_bytes >= r.used_bytes)).toBe(true);
  });
});
