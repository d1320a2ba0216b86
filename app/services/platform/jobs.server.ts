import { config } from "~/config.server";
import { metrics } from "./metrics.server";

/**
 * Runs `job` every `interval` ms in this server process, never two at once (a tick that finds
 * the previous run still going is skipped). A failure is logged as `failure: <message>` and the
 * next tick tries again. `firstAfter` runs the first one sooner than a whole interval. The
 * timers keep no stopping server alive. Returns the function that stops it. With JOBS_TRACE on,
 * every finished run logs `[jobs] <name> ran`, the name being the failure message's tag
 * ("[mail] …" → mail), for the server tests to wait on; /metrics counts runs and failures by that name.
 */
export function every(
  interval: number,
  failure: string,
  job: () => Promise<unknown>,
  { firstAfter }: { firstAfter?: number } = {},
) {
  let running = false;
  const name = /^\[([^\]]+)\]/.exec(failure)?.[1] ?? failure;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      await job();
    } catch (error) {
      metrics.jobFailures.inc({ job: name });
      console.error(`${failure}: ${error instanceof Error ? error.message : error}`);
    } finally {
      running = false;
      metrics.jobRuns.inc({ job: name });
      if (config.JOBS_TRACE) console.info(`[jobs] ${name} ran`);
    }
  };
  const timer = setInterval(tick, interval);
  timer.unref();
  if (firstAfter !== undefined) setTimeout(tick, firstAfter).unref();
  return () => clearInterval(timer);
}
