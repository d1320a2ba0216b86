import { afterEach, describe, expect, it, vi } from "vitest";
import { every } from "~/services/platform/jobs.server";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("every", () => {
  it("runs the job each interval, never two at once, and keeps going after a failure", async () => {
    vi.useFakeTimers();
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    let runs = 0;
    let release!: () => void;
    const stop = every(
      1_000,
      "[test] job failed",
      async () => {
        runs++;
        if (runs === 1) await new Promise<void>((done) => (release = done));
        if (runs === 2) throw new Error("boom");
      },
      { firstAfter: 10 },
    );

    await vi.advanceTimersByTimeAsync(10);
    expect(runs).toBe(1);
    // Still running: the interval's ticks are skipped.
    await vi.advanceTimersByTimeAsync(3_000);
    expect(runs).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(2);
    expect(error).toHaveBeenCalledWith("[test] job failed: boom");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toBe(3);
    stop();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(runs).toBe(3);
  });
});
