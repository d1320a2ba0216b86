import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { ContractEventRow, Database } from "../../../db/schema";

/** A line of a contract's timeline, as a move writes it. */
export type NewContractEvent = Pick<ContractEventRow, "kind" | "author" | "message" | "created_at"> & {
  amount_cents?: number | null;
};

/**
 * Writes the timeline's event number `seq`: the contract's `events_count` as the move's UPDATE
 * of the contract's row left it (that UPDATE numbers the events: two moves never share one).
 */
export async function insertEvent(
  trx: Kysely<Database>,
  contractId: string,
  seq: number,
  event: NewContractEvent,
): Promise<ContractEventRow> {
  const row: ContractEventRow = {
    id: randomUUID(),
    contract_id: contractId,
    seq,
    ...event,
    amount_cents: event.amount_cents ?? null,
  };
  await trx.insertInto("contract_events").values(row).execute();
  return row;
}
