import { every } from "./jobs.server";
import { deleteExpiredRateLimits } from "./rate-limit.server";
import { deleteExpiredSessions } from "../accounts/sessions.server";
import { expireDataExports } from "../accounts/data-export.server";
import { pruneEvents } from "./events.server";
import { resendVerifications } from "../accounts/identity-provider.server";
import { purgeIdentityFiles } from "../accounts/identity.server";
import { prunePendingFiles } from "../messaging/pending-files.server";
import { pruneEmailWebhookReceipts } from "./email-suppressions.server";

/** How often each server process sweeps expired rows. */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Deletes what has expired and is never read again: sessions past their date, rate-limit
 * counters past their window, live-update events past their hour (events.server.ts), the ZIPs of data copies past their 7 days (the copy's row
 * stays, 'expired', so its link answers 410), the identity photos 90 days after their decision (identity.server.ts), and a message's files held by the contact notice and never sent, after a day (pending-files.server.ts). A plain DELETE … WHERE on expiry: several processes (or servers)
 * running it at once delete each row once, and the others find nothing.
 */
export async function pruneExpired(now = new Date()) {
  const sessions = await deleteExpiredSessions(now);
  const rateLimits = await deleteExpiredRateLimits(now.getTime());
  const dataExports = await expireDataExports(now);
  const events = await pruneEvents(now);
  const identityFiles = await purgeIdentityFiles(now);
  // Identities the automatic provider did not take when they were sent (it was unreachable).
  const verificationsResent = await resendVerifications();
  const pendingFiles = await prunePendingFiles(now);
  // The e-mail provider's notification ids, kept a few days against replays.
  await pruneEmailWebhookReceipts(now);
  return { sessions, rateLimits, dataExports, events, identityFiles, verificationsResent, pendingFiles };
}

/** Runs pruneExpired every PRUNE_INTERVAL_MS in this process; the timer keeps no server alive. */
export function startPruning(interval = PRUNE_INTERVAL_MS) {
  return every(interval, "[housekeeping] pruning failed", () => pruneExpired(), {
    firstAfter: Math.min(interval, 60_000),
  });
}
