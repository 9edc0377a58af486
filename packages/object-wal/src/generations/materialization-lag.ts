// Materialization lag (docs/architecture.md §6): how far a stream's committed head is ahead of the coverage of its
// committed higher generations, in records and logical bytes, and the bound above which the async-object profiles
// reject appends. Pure arithmetic over values the caller read; it reads no state and rejects nothing itself (the
// admission hook in profiles/ does).
import type { StreamHead } from "@nereus/core";
import type { StreamCoverage } from "./coverage-cache.js";

/** Lag bounds; 0 disables a bound. */
export interface MaterializationLagBound {
  /** Committed records not yet covered by a committed higher generation (default 1,000,000). */
  readonly maxRecords: number;
  /** Committed logical bytes not yet covered (default 1 GiB). */
  readonly maxBytes: number;
}

export const DEFAULT_LAG_BOUND: MaterializationLagBound = Object.freeze({
  maxRecords: 1_000_000,
  maxBytes: 1024 * 1024 * 1024,
});

/** The lag of `head` against `coverage`. */
export function measureLag(
  head: StreamHead,
  coverage: StreamCoverage,
): { readonly records: number; readonly bytes: number } {
  const from = Math.max(coverage.materializedEnd, head.trimOffset);
  return {
    records: Math.max(0, head.committedEndOffset - from),
    bytes: Math.max(0, head.cumulativeSize - coverage.materializedCumulativeSize),
  };
}
