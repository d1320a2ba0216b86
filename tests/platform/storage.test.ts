import { afterEach, describe, expect, it } from "vitest";
import { config } from "~/config.server";
import { deliverContract } from "~/services/contracts/contracts.server";
import { sendMessage } from "~/services/messaging/messages.server";
import { describeBytes, quotaBytes, storageUsage } from "~/services/platform/storage.server";
import { db } from "../../db";
import { PNG_1X1, pngOfSize } from "../support/fixtures";
import { action as profileUpdate } from "~/routes/api+/_account+/profile";
import { addPortfolioItem } from "~/services/reputation/portfolio.server";
import { readPhoto, savePhoto } from "~/services/platform/uploads.server";
import { BASE, call, signedInUser } from "../support/helpers";
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

describe("image dimensions", () => {
  const TOO_LARGE =
    "A imagem é grande demais em pixels: no máximo 8192 px de lado e 16,8 megapixels (4096 × 4096). Reduza-a e envie de novo.";
  // About 50 KB on disk; over 1 GB in a browser tab showing it.
  const huge = () => new Blob([pngOfSize(20_000, 20_000)], { type: "image/png" });

  it("refuses a profile photo too large in pixels with a Portuguese message, keeping the photo it had", async () => {
    const { user, token } = await signedInUser({ account_type: "freelancer" });
    const form = new FormData();
    form.append("photo", huge(), "enorme.png");
    const res = await call(
      profileUpdate,
      new Request(`${BASE}/api/profile`, { method: "POST", body: form, headers: { Authorization: `Bearer ${token}` } }),
    );
    expect([res.status, res.body.errors?.photo]).toEqual([422, TOO_LARGE]);
    const row = await db.selectFrom("users").select("photo_path").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.photo_path).toBeNull();
  });

  it("refuses it in the portfolio and in a message's files, storing nothing", async () => {
    const { user } = await signedInUser({ account_type: "freelancer" });
    await expect(
      addPortfolioItem(user, { title: "Loja virtual", description: "Uma loja feita do zero." }, huge()),
    ).rejects.toMatchObject({ status: 422, fieldErrors: { image: "image_dimensions_too_large" } });
    expect(await db.selectFrom("portfolio_items").select("id").where("user_id", "=", user.id).execute()).toEqual([]);
    const { applicant, application } = await negotiation("pending");
    await expect(
      sendMessage(applicant, application.id, { body: "A arte" }, [new File([pngOfSize(20_000, 20_000)], "arte.png")]),
    ).rejects.toMatchObject({ status: 422, fieldErrors: { files: "image_dimensions_too_large" } });
    expect(await used(applicant.id)).toBe(0);
  });

  it("takes up to 8192 px a side and 4096 × 4096 pixels in all", async () => {
    for (const [width, height] of [
      [4_096, 4_096],
      [8_192, 2_048],
      [1, 8_192],
    ]) {
      const name = await savePhoto(new Blob([pngOfSize(width, height)]));
      expect(await readPhoto(name)).not.toBeNull();
    }
    for (const [width, height] of [
      [8_193, 1],
      [1, 8_193],
      [4_097, 4_096],
      [20_000, 20_000],
    ]) {
      await expect(savePhoto(new Blob([pngOfSize(width, height)])), `${width}×${height}`).rejects.toMatchObject({
        status: 422,
        fieldErrors: { photo: "image_dimensions_too_large" },
      });
    }
  });
});
