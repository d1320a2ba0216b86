import type { DisputeRow } from "../../../db/schema";

// A contract's dispute as its two sides (and the console) read it. Kept apart from the services
// so the contract's JSON and the disputes' can both use it.

export type DisputeJson = {
  id: string;
  contract_id: string;
  /** The milestone it is about (the one being worked on when it was opened). */
  milestone_id: string | null;
  opened_by: DisputeRow["opened_by"];
  reason: string;
  status: DisputeRow["status"];
  /** The other side answers by then. */
  respond_by: string;
  answered_at: string | null;
  /** Once decided: what (complete, cancel, or what payments add), why and when. Final. */
  decision: string | null;
  decision_reason: string | null;
  decided_at: string | null;
  created_at: string;
};

export function toDisputeJson(d: DisputeRow): DisputeJson {
  return {
    id: d.id,
    contract_id: d.contract_id,
    milestone_id: d.milestone_id,
    opened_by: d.opened_by,
    reason: d.reason,
    status: d.status,
    respond_by: d.respond_by,
    answered_at: d.answered_at,
    decision: d.decision,
    decision_reason: d.decision_reason,
    decided_at: d.decided_at,
    created_at: d.created_at,
  };
}
