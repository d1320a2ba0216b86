import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "../../db";
import { config } from "~/config.server";
import * as entriesRoute from "~/routes/api+/contracts+/$id.weeks.$week.entries";
import * as entryRoute from "~/routes/api+/contracts+/$id.entries.$entry";
import * as entryFileRoute from "~/routes/api+/contracts+/$id.entries.$entry.file";
import * as contractPage from "~/routes/contracts+/$id";
import { deleteEntry, editEntry, getWeek, logEntry, submitWeek } from "~/services/contracts/hourly.server";
import { getEntryFile } from "~/services/contracts/entry-files.server";
import { createSession } from "~/services/accounts/sessions.server";
import { collectPersonalData } from "~/services/accounts/data-export.server";
import { quotaBytes } from "~/services/platform/storage.server";
import { readAttachment } from "~/services/platform/uploads.server";
import type { UserRow } from "../../db/schema";
import { PNG_1X1 } from "../support/fixtures";
import { BASE, call, jsonRequest, signedInUser } from "../support/helpers";
import { escrow, fund, hiredHourly } from "../payments/support";
import { get, toastOf } from "../operator/support";

// The optional file of a time entry (docs/payments.md, "Contratos por hora"): stored and checked
// as a delivery's, counted against the freelancer's quota, served to the contract's two sides,
// deleted (and given back) with its entry; the JSON body still logs an entry without one.

const MONDAY = "2026-11-30";
/** Wednesday 2 December 2026, 15:00 in São Paulo. */
const WEDNESDAY = "2026-12-02T18:00:00.000Z";
const fields = { day: MONDAY, minutes: "90", description: "Desenhei as telas do cadastro." };
const quota = config.STORAGE_QUOTA_MB;

/** A PNG (by its content) of `size` bytes. */
const png = (size = PNG_1X1.length, name = "tela.png") =>
  new File([PNG_1X1, new Uint8Array(size - PNG_1X1.length)], name);
const used = async (id: string) =>
  Number(
    (await db.selectFrom("users").select("storage_bytes").where("id", "=", id).executeTakeFirstOrThrow()).storage_bytes,
  );
const entriesOf = async (id: string) =>
  db.selectFrom("time_entries").selectAll().where("contract_id", "=", id).execute();

/** An hourly hire with its first week funded, and a token for each side. */
async function openWeek() {
  const hire = await hiredHourly();
  await fund(hire.owner, hire.id);
  const token = async (u: UserRow) => (await createSession(u.id)).token;
  return { ...hire, m: await token(hire.owner), f: await token(hire.applicant), base: `/api/contracts/${hire.id}` };
}

function multipart(path: string, token: string, values: Record<string, string>, files: File[] = []) {
  const form = new FormData();
  for (const [k, v] of Object.entries(values)) form.append(k, v);
  for (const file of files) form.append("file", file);
  return new Request(BASE + path, { method: "POST", headers: { Authorization: `Bearer ${token}` }, body: form });
}

beforeAll(() => escrow(1_000));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(WEDNESDAY));
});
afterEach(() => {
  vi.useRealTimers();
  config.STORAGE_QUOTA_MB = quota;
});

describe("a time entry's file (service)", () => {
  it("is stored with the entry, counted, kept by an edit, and deleted and given back with the entry", async () => {
    const { applicant, owner, id } = await openWeek();
    const logged = await logEntry(applicant, id, MONDAY, fields, png(1_000, "tela do cadastro.png"));
    expect(logged).toMatchObject({ minutes: 90 });
    expect(logged.file).toEqual({
      name: "tela do cadastro.png",
      content_type: "image/png",
      size_bytes: 1_000,
      url: `/api/contracts/${id}/entries/${logged.id}/file`,
    });
    expect(await used(applicant.id)).toBe(1_000);
    // Both sides read it; the merchant sees it in the week.
    for (const side of [applicant, owner]) {
      const file = await getEntryFile(side, id, logged.id);
      expect(file).toMatchObject({ name: "tela do cadastro.png", contentType: "image/png" });
      expect(file.body.byteLength).toBe(1_000);
    }
    expect((await getWeek(owner, id, MONDAY)).entries[0]!.file).toMatchObject({ size_bytes: 1_000 });
    const [row] = await entriesOf(id);
    const stored = row!.file_stored_name!;
    expect(await readAttachment(stored)).not.toBeNull();

    // Editing keeps the file (and the quota as it was).
    const edited = await editEntry(applicant, id, logged.id, { ...fields, minutes: 120 });
    expect(edited.file).toEqual(logged.file);
    expect(await used(applicant.id)).toBe(1_000);

    // Deleting the entry deletes its file and gives its bytes back.
    await deleteEntry(applicant, id, logged.id);
    expect(await used(applicant.id)).toBe(0);
    await vi.waitFor(async () => expect(await readAttachment(stored)).toBeNull());
    expect(await getEntryFile(owner, id, logged.id).catch((e) => e.status)).toBe(404);
  });

  it("is refused for a bad type (422) or past the quota (413), counting nothing and logging no entry", async () => {
    const { applicant, id } = await openWeek();
    const wrong = await logEntry(applicant, id, MONDAY, fields, new File(["<script>1</script>"], "x.png")).catch(
      (e) => e,
    );
    expect(wrong).toMatchObject({ status: 422, fieldErrors: { file: "file_invalid_type" } });
    // The text's problems and the file's at once, before anything is stored.
    const both = await logEntry(
      applicant,
      id,
      MONDAY,
      { ...fields, description: "curta" },
      new File(["x"], "a.txt"),
    ).catch((e) => e);
    expect(both).toMatchObject({
      status: 422,
      fieldErrors: { description: "entry_description_length", file: "file_invalid_type" },
    });
    config.STORAGE_QUOTA_MB = 1;
    await db
      .updateTable("users")
      .set({ storage_bytes: quotaBytes() - 500 })
      .where("id", "=", applicant.id)
      .execute();
    const full = await logEntry(applicant, id, MONDAY, fields, png(1_000)).catch((e) => e);
    expect(full).toMatchObject({
      status: 413,
      key: "storage_quota_exceeded",
      fieldErrors: { file: "storage_quota_exceeded" },
    });
    expect(await used(applicant.id)).toBe(quotaBytes() - 500);
    expect(await entriesOf(id)).toHaveLength(0);
    const week = await db
      .selectFrom("contract_weeks")
      .select("minutes_total")
      .where("contract_id", "=", id)
      .executeTakeFirstOrThrow();
    expect(week.minutes_total).toBe(0);
    // Without a file the quota does not matter.
    expect((await logEntry(applicant, id, MONDAY, fields)).file).toBeNull();
  });

  it("is refused before storing anything to a merchant, or once the week is submitted", async () => {
    const { owner, applicant, id } = await openWeek();
    expect(await logEntry(owner, id, MONDAY, fields, png()).catch((e) => e.status)).toBe(403);
    await logEntry(applicant, id, MONDAY, fields);
    await submitWeek(applicant, id, MONDAY);
    expect(await logEntry(applicant, id, MONDAY, fields, png()).catch((e) => e.status)).toBe(409);
    expect(await used(applicant.id)).toBe(0);
  });
});

describe("a time entry's file (API)", () => {
  it("multipart: stored and served to both sides, 404 to others; 422, 413, two files; JSON still works", async () => {
    const { id, base, m, f } = await openWeek();
    const params = { id, week: MONDAY };
    const path = `${base}/weeks/${MONDAY}/entries`;
    const logged = await call(entriesRoute.action, multipart(path, f, fields, [png(2_000, "relatório.png")]), params);
    expect(logged.status).toBe(201);
    expect(logged.body).toMatchObject({ message: "Horas lançadas.", data: { minutes: 90 } });
    const file = logged.body.data.file;
    expect(file).toMatchObject({ name: "relatório.png", content_type: "image/png", size_bytes: 2_000 });
    const fileParams = { id, entry: logged.body.data.id };
    for (const token of [m, f]) {
      const download = await call(entryFileRoute.loader, jsonRequest(file.url, undefined, { token }), fileParams);
      expect(download.status).toBe(200);
      expect(download.headers.get("Content-Type")).toBe("image/png");
      expect(download.headers.get("Cache-Control")).toBe("private, no-store");
      expect(download.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(download.headers.get("Content-Disposition")).toContain("filename*=UTF-8''relat%C3%B3rio.png");
    }
    const stranger = await signedInUser({ account_type: "merchant" });
    const hidden = await call(
      entryFileRoute.loader,
      jsonRequest(file.url, undefined, { token: stranger.token }),
      fileParams,
    );
    expect(hidden.status).toBe(404);
    expect((await call(entryFileRoute.loader, jsonRequest(file.url), fileParams)).status).toBe(401);

    // An entry without a file: 404 for its file; the JSON body as before.
    const plain = await call(entriesRoute.action, jsonRequest(path, { ...fields, minutes: 30 }, { token: f }), params);
    expect(plain.status).toBe(201);
    expect(plain.body.data.file).toBeNull();
    const none = await call(
      entryFileRoute.loader,
      jsonRequest(`${base}/entries/${plain.body.data.id}/file`, undefined, { token: m }),
      { id, entry: plain.body.data.id },
    );
    expect(none.status).toBe(404);
    // A form without a file logs the entry too.
    expect((await call(entriesRoute.action, multipart(path, f, { ...fields, minutes: "15" }), params)).status).toBe(
      201,
    );

    const wrong = await call(entriesRoute.action, multipart(path, f, fields, [new File(["oi"], "a.png")]), params);
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.file).toMatch(/PDF/);
    const big = await call(
      entriesRoute.action,
      multipart(path, f, fields, [new File([Buffer.alloc(10 * 1024 * 1024 + 10)], "big.zip")]),
      params,
    );
    expect(big.status).toBe(413);
    expect(big.body.errors.file).toMatch(/10 MB/);
    const two = await call(entriesRoute.action, multipart(path, f, fields, [png(), png()]), params);
    expect(two.status).toBe(422);
    expect(two.body.errors.file).toBe("Envie um arquivo só por lançamento.");

    // Deleting the entry through the API takes its file.
    const removed = await call(
      entryRoute.action,
      jsonRequest(`${base}/entries/${fileParams.entry}`, undefined, { token: f, method: "DELETE" }),
      fileParams,
    );
    expect(removed.status).toBe(200);
    const gone = await call(entryFileRoute.loader, jsonRequest(file.url, undefined, { token: f }), fileParams);
    expect(gone.status).toBe(404);
  });
});

describe("a time entry's file (the contract's page, without JavaScript)", () => {
  it("the quick entry posts it multipart; refusals land on `file`, with what was typed", async () => {
    const { id, f, m } = await openWeek();
    const path = `/contracts/${id}`;
    const form = { intent: "log_time", week: MONDAY, day: "2026-12-01", hours: "1", minutes: "30" };
    const description = "Revisei o contrato da API.";
    const logged = await call(
      contractPage.action,
      multipart(path, f, { ...form, description }, [png(1_500, "revisão.png")]),
      { id },
    );
    expect(logged.status).toBe(302);
    expect(await toastOf(logged)).toBe("Horas lançadas.");
    // Both sides see its link in the week.
    for (const token of [f, m]) {
      const page = await get(contractPage, path, token, { id });
      expect(page.body.week.entries[0].file).toMatchObject({ name: "revisão.png", size_bytes: 1_500 });
    }

    const wrong = await call(
      contractPage.action,
      multipart(path, f, { ...form, description: "curta" }, [new File(["oi"], "a.pdf")]),
      { id },
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toMatchObject({
      description: "Descreva o que foi feito (de 10 a 2000 caracteres).",
      file: expect.stringMatching(/PDF/),
    });
    expect(wrong.body.values).toMatchObject({ intent: "log_time", hours: "1", description: "curta" });

    const big = await call(
      contractPage.action,
      multipart(path, f, { ...form, description }, [new File([Buffer.alloc(10 * 1024 * 1024 + 10)], "big.zip")]),
      { id },
    );
    expect(big.status).toBe(413);
    expect(big.body.errors).toEqual({ file: "Cada arquivo deve ter no máximo 10 MB." });
    expect(await entriesOf(id)).toHaveLength(1);
  });
});

describe("a time entry's file in the copy of the freelancer's data", () => {
  it("goes under files/timesheets/ with its entry, in the freelancer's copy only", async () => {
    const { owner, applicant, id } = await openWeek();
    const logged = await logEntry(applicant, id, MONDAY, fields, png(1_200, "notas.png"));
    const copy = await collectPersonalData(applicant.id);
    const weeks = copy.kinds["timesheets.json"] as { contract_id: string; entries: { file: unknown }[] }[];
    const path = `files/timesheets/${id}/${logged.id}-notas.png`;
    expect(weeks.find((w) => w.contract_id === id)!.entries).toMatchObject([
      { file: { name: "notas.png", content_type: "image/png", size_bytes: 1_200, path } },
    ]);
    const file = copy.files.find((f) => f.path === path)!;
    expect((await file.read())!.body.byteLength).toBe(1_200);
    const theirs = await collectPersonalData(owner.id);
    expect(theirs.files.filter((f) => f.path.startsWith("files/timesheets/"))).toEqual([]);
  });
});
