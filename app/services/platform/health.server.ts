import { sql } from "kysely";
import { db } from "../../../db";

/** Whether the database answers a trivial query (the health check). */
export async function databaseAnswers(): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
