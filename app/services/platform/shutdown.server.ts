/**
 * remix-serve answers SIGTERM and SIGINT by closing its HTTP server: no new connections, the
 * requests in flight run to the end, and the process exits by itself once nothing is left to do
 * (db/index.ts then checkpoints and closes SQLite on 'exit'). This only adds a deadline, so a
 * client that never lets go of its connection cannot keep a stopping server alive forever.
 */
export const SHUTDOWN_GRACE_MS = Number(process.env.SHUTDOWN_GRACE_MS) || 25_000;

export function installShutdownDeadline() {
  const store = globalThis as unknown as { __freelaShutdownHooks?: boolean };
  if (store.__freelaShutdownHooks) return;
  store.__freelaShutdownHooks = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      console.info(`[freela] ${signal}: finishing the requests in flight, then closing the database`);
      // unref: the timer itself never keeps the process alive; it fires only if something else does.
      setTimeout(() => {
        console.error(`[freela] still busy ${SHUTDOWN_GRACE_MS} ms after ${signal}; exiting`);
        process.exit(1);
      }, SHUTDOWN_GRACE_MS).unref();
    });
  }
}
