import type { Kysely } from "kysely";
import { z } from "zod";
import { MAX_PREMODERATION_DAYS } from "~/lib/moderation";
import { intField } from "~/lib/market-schemas";
import { flagField } from "~/lib/schemas";
import { db, transaction } from "../../../db";
import type { Database, UserRow } from "../../../db/schema";
import { parseInput } from "../platform/errors.server";
import { now } from "../platform/records.server";
import { operatorActor, recordAudit } from "./audit.server";

// The operator's settings: one row per key in `settings`; a key never written has its default.

export type Settings = {
  /** New opportunities of merchants whose account is younger than this wait for an operator; 0: off. */
  premoderation_days: number;
  /** 1: opportunities and profiles have public pages (and a sitemap) for visitors; 0: off (404). */
  public_pages: 0 | 1;
};

const DEFAULTS: Settings = { premoderation_days: 0, public_pages: 1 };

export async function getSettings(database: Kysely<Database> = db): Promise<Settings> {
  const rows = await database.selectFrom("settings").select(["key", "value"]).execute();
  const settings = { ...DEFAULTS };
  for (const { key, value } of rows) {
    if (key === "premoderation_days" && /^\d+$/.test(value)) settings.premoderation_days = Number(value);
    if (key === "public_pages" && (value === "0" || value === "1")) settings.public_pages = value === "1" ? 1 : 0;
  }
  return settings;
}

const settingsSchema = z
  .object({
    premoderation_days: intField("premoderation_days_invalid", 0, MAX_PREMODERATION_DAYS).optional(),
    // 1 or 0 (JSON), true or false, or a form's "1"/"0".
    public_pages: z
      .preprocess((v) => (v === 1 || v === 0 ? v === 1 : v), flagField("public_pages_invalid"))
      .transform((on): 0 | 1 => (on ? 1 : 0))
      .optional(),
  })
  .strict("settings_unknown_field");

/** Changes the settings given (the others stay); one audit row per setting that changed. */
export async function updateSettings(operator: UserRow, input: unknown): Promise<Settings> {
  const patch = parseInput(settingsSchema, input, "settings_invalid");
  const at = now();
  return transaction(async (trx) => {
    const current = await getSettings(trx);
    for (const [key, value] of Object.entries(patch) as [keyof Settings, number][]) {
      if (value === undefined || current[key] === value) continue;
      await trx
        .insertInto("settings")
        .values({ key, value: String(value), updated_at: at })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: String(value), updated_at: at }))
        .execute();
      await recordAudit(
        trx,
        operatorActor(operator),
        {
          action: "setting.update",
          target_type: "setting",
          target_id: key,
          before: { [key]: current[key] },
          after: { [key]: value },
        },
        at,
      );
      (current as Record<keyof Settings, number>)[key] = value;
    }
    return current;
  });
}
