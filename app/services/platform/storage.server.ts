import { sql, type Insertable, type Kysely } from "kysely";
import { config } from "~/config.server";
import { db } from "../../../db";
import type { ContractFileRow, Database, MessageFileRow } from "../../../db/schema";
import { AppError } from "./errors.server";

// The per-user storage quota. Message and delivery files are the only uploads without a bound
// of their own (a profile has one photo, a portfolio 20 images of 2 MB), so they are what the
// quota counts: users.storage_bytes (migration 018), raised in the same transaction that records
// the files' rows, by a conditional UPDATE — two uploads at once can never pass the quota
// together, and a refused upload leaves nothing counted.

const MB = 1024 * 1024;

export const quotaBytes = () => config.STORAGE_QUOTA_MB * MB;

/** "12,5 MB", "1 GB": a size for the quota's message and the operator's report. */
export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * MB) return `${(bytes / (1024 * MB)).toLocaleString("pt-BR", { maximumFractionDigits: 1 })} GB`;
  return `${(bytes / MB).toLocaleString("pt-BR", { maximumFractionDigits: 1 })} MB`;
}

/**
 * Records an upload's file rows in `table`, counted against the uploader's quota in the same
 * transaction (a refused upload records nothing).
 */
export async function insertFiles<T extends keyof FileTables>(
  trx: Kysely<Database>,
  userId: string,
  table: T,
  rows: FileTables[T][],
) {
  if (!rows.length) return;
  await reserveStorage(
    trx,
    userId,
    rows.reduce((sum, f) => sum + f.size_bytes, 0),
  );
  await trx
    .insertInto(table)
    .values(rows as Insertable<Database[T]>[])
    .execute();
}

type FileTables = { message_files: MessageFileRow; contract_files: ContractFileRow };

/**
 * Counts `bytes` more against the user's quota, inside the caller's transaction (the one that
 * records the files), or refuses with 413 `storage_quota_exceeded` on `field`, saying how much
 * is used of how much.
 */
export async function reserveStorage(trx: Kysely<Database>, userId: string, bytes: number, field = "files") {
  if (bytes <= 0) return;
  const quota = quotaBytes();
  const result = await trx
    .updateTable("users")
    .set({ storage_bytes: sql`storage_bytes + ${bytes}` })
    .where("id", "=", userId)
    .where(sql<boolean>`storage_bytes + ${bytes} <= ${quota}`)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return;
  const row = await trx.selectFrom("users").select("storage_bytes").where("id", "=", userId).executeTakeFirst();
  throw new AppError(
    413,
    "storage_quota_exceeded",
    { [field]: "storage_quota_exceeded" },
    {
      used: describeBytes(Number(row?.storage_bytes ?? 0)),
      quota: describeBytes(quota),
    },
  );
}

/**
 * Gives `bytes` back to the user's quota, inside the caller's transaction (the one in which the
 * files stop counting: replaced or deleted); never below zero.
 */
export async function releaseStorage(trx: Kysely<Database>, userId: string, bytes: number) {
  if (bytes <= 0) return;
  await trx
    .updateTable("users")
    .set({ storage_bytes: sql`CASE WHEN storage_bytes >= ${bytes} THEN storage_bytes - ${bytes} ELSE 0 END` })
    .where("id", "=", userId)
    .execute();
}

export type StorageUsage = {
  id: string;
  email: string;
  full_name: string;
  account_type: string;
  used_bytes: number;
  quota_bytes: number;
  percent: number;
};

/**
 * What each user keeps in message and delivery files, the largest first: for the operator
 * (`npm run storage`; the operator console will show the same).
 */
export async function storageUsage({ limit = 50, minBytes = 1 } = {}): Promise<StorageUsage[]> {
  const quota = quotaBytes();
  const rows = await db
    .selectFrom("users")
    .select(["id", "email", "full_name", "account_type", "storage_bytes"])
    .where("storage_bytes", ">=", minBytes)
    .orderBy("storage_bytes", "desc")
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map((r) => {
    const used = Number(r.storage_bytes);
    return {
      id: r.id,
      email: r.email,
      full_name: r.full_name,
      account_type: r.account_type,
      used_bytes: used,
      quota_bytes: quota,
      percent: Math.round((used / quota) * 1000) / 10,
    };
  });
}
