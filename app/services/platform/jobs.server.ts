/**
 * Runs `job` every `interval` ms in this server process, never two at once (a tick that finds
 * the previous run still going is skipped). A failure is logged as `failure: <message>` and the
 * next tick tries again. `firstAfter` runs the first one sooner than a whole interval. The
 * timers keep no stopping server alive. Returns the function that stops it.
 */
export function every(
  interval: number,
  failure: string,
  job: () => Promise<unknown>,
  { firstAfter }: { firstAfter?: number } = {},
) {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await job();
    } catch (error) {
      console.error(`${failure}: ${error instanceof Error ? error.message : error}`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, interval);
  timer.unref();
  if (firstAfter !== undefined) setTimeout(tick, firstAfter).unref();
  return () => clearInterval(timer);
}
