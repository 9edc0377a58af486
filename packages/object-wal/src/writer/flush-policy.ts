// When the multi-stream WAL writer closes a pending object and uploads it: by size, by slice count, or after the
// linger time since its first slice — and how many uploads may be in flight at once. While every upload slot is
// busy, a lingering object keeps collecting slices (up to its size/slice bounds) instead of queueing as a tiny PUT.
import { ErrorCode, NereusError } from "@nereus/core";

export interface FlushPolicy {
  /** Upload once the pending object holds this many bytes (estimate; default 8 MiB). */
  readonly maxBytes: number;
  /** Upload at most this long after the first slice entered (default 5 ms; 0 = once the microtasks of the current turn have run). */
  readonly lingerMs: number;
  /** Upload once the pending object holds this many slices (streams; default 4,096). */
  readonly maxSlices: number;
  /** Uploads in flight at once (default 4). */
  readonly maxConcurrentFlushes: number;
}

const DEFAULT_FLUSH_POLICY: FlushPolicy = Object.freeze({
  maxBytes: 8 * 1024 * 1024,
  lingerMs: 5,
  maxSlices: 4096,
  maxConcurrentFlushes: 4,
});

/** The defaults overridden by `overrides`, validated (INVALID_ARGUMENT). */
export function resolveFlushPolicy(overrides: Partial<FlushPolicy> = {}): FlushPolicy {
  const policy = { ...DEFAULT_FLUSH_POLICY, ...overrides };
  check("maxBytes", policy.maxBytes, 1);
  check("lingerMs", policy.lingerMs, 0);
  check("maxSlices", policy.maxSlices, 1);
  check("maxConcurrentFlushes", policy.maxConcurrentFlushes, 1);
  return Object.freeze(policy);
}

function check(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `flush policy ${name} must be an integer >= ${String(min)}, got ${String(value)}`,
      { retryable: false },
    );
  }
}
