// Bounded polling: every wait in the harness has a deadline, a poll interval, and a way to give up early
// (for example when the process being waited for has already exited).

/** Options for {@link waitUntil}. */
export interface WaitOptions {
  /** Give up after this long. */
  readonly timeoutMs: number;
  /** Pause between checks (default 100 ms). */
  readonly intervalMs?: number;
  /** Called before each check; a returned string aborts the wait with that reason. */
  readonly abortReason?: () => string | undefined;
}

/** Thrown by {@link waitUntil} on timeout or abort; callers turn it into a service error. */
export class WaitError extends Error {
  override readonly name = "WaitError";
}

/** Sleeps `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Polls `check` until it returns true. A check that throws counts as "not yet". Throws {@link WaitError}
 * naming `what` when the deadline passes or `abortReason` reports a reason.
 */
export async function waitUntil(what: string, check: () => Promise<boolean>, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 100;
  let lastError: unknown;
  for (;;) {
    const reason = options.abortReason?.();
    if (reason !== undefined) throw new WaitError(`${what}: ${reason}`);
    try {
      if (await check()) return;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const last = lastError instanceof Error ? ` (last error: ${lastError.message})` : "";
      throw new WaitError(`timed out after ${(options.timeoutMs / 1000).toFixed(1)} s waiting for ${what}${last}`);
    }
    await sleep(Math.min(interval, Math.max(1, deadline - Date.now())));
  }
}
