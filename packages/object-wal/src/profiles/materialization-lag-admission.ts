// Admission hook of the Object WAL profiles (docs/architecture.md §6), run by core before any WAL I/O of an
// append: (1) the stream is registered for background work before its first append through this runtime, so every
// commit is rediscoverable; (2) for the async-object profiles (OBJECT_WAL_ASYNC_OBJECT, BOOKKEEPER_WAL_ASYNC_OBJECT),
// the append is rejected with BACKPRESSURE_REJECTED (KNOWN_NOT_COMMITTED, retryable) when the materialization lag is
// above the bound — core runs admission before any primary-WAL I/O, so a rejected BookKeeper append adds nothing.
// Lag is measured (generations/materialization-lag.ts) from authoritative state: the head's committed end and size
// against the materialized coverage that generation publication records in the same transaction. A cached coverage may only be stale-low (coverage never shrinks),
// so the hook re-reads it before rejecting. It never drops committed data to reduce lag, and never throttles
// reads, recovery or workers (they do not pass through admission).
import { ErrorCode, NereusError, type AdmissionHook, type StorageProfile, type StreamHead } from "@nereus/core";
import type { CoverageCache } from "../generations/coverage-cache.js";
import { measureLag, type MaterializationLagBound } from "../generations/materialization-lag.js";
import type { MaterializationStateStore } from "../generations/materialization-state-store.js";
import type { StreamRegistry } from "../generations/stream-registry.js";
import { LAG_BOUNDED_PROFILES } from "./materialized-profiles.js";

export interface MaterializationLagAdmissionOptions {
  readonly registry: StreamRegistry;
  readonly states: MaterializationStateStore;
  readonly coverage: CoverageCache;
  readonly bound: MaterializationLagBound;
  /** Profiles this runtime registers for background work. */
  readonly registeredProfiles: ReadonlySet<StorageProfile>;
  /** Registered profiles whose appends the lag bound applies to (default LAG_BOUNDED_PROFILES: both async ones). */
  readonly lagBoundedProfiles?: ReadonlySet<StorageProfile>;
}

/** Registration + lag admission. Stateless apart from the shared caches. */
export class MaterializationLagAdmission implements AdmissionHook {
  readonly #options: MaterializationLagAdmissionOptions;
  /** Appends rejected for lag so far. */
  rejected = 0;

  constructor(options: MaterializationLagAdmissionOptions) {
    this.#options = options;
  }

  async admit(streamId: string, head: StreamHead, options: { signal?: AbortSignal } = {}): Promise<void> {
    const { registry, states, coverage, bound, registeredProfiles } = this.#options;
    if (!registeredProfiles.has(head.profile)) return;
    await registry.ensureRegistered(streamId, head.profile, options.signal);
    const lagBounded = this.#options.lagBoundedProfiles ?? LAG_BOUNDED_PROFILES;
    if (!lagBounded.has(head.profile) || (bound.maxRecords === 0 && bound.maxBytes === 0)) return;
    const cached = coverage.get(streamId);
    if (cached !== undefined && !over(measureLag(head, cached), bound)) return;
    const { record } = await states.load(streamId, options.signal);
    const fresh = {
      materializedEnd: record.materializedEnd,
      materializedCumulativeSize: record.materializedCumulativeSize,
    };
    coverage.update(streamId, fresh);
    const lag = measureLag(head, fresh);
    if (!over(lag, bound)) return;
    this.rejected += 1;
    throw new NereusError(
      ErrorCode.BACKPRESSURE_REJECTED,
      `stream ${streamId}: materialization lag ${String(lag.records)} record(s) / ${String(lag.bytes)} byte(s) is above the bound ` +
        `(${String(bound.maxRecords)} records / ${String(bound.maxBytes)} bytes); retry later`,
      {
        retryable: true,
        details: {
          lagRecords: lag.records,
          lagBytes: lag.bytes,
          maxRecords: bound.maxRecords,
          maxBytes: bound.maxBytes,
        },
      },
    );
  }
}

function over(lag: { readonly records: number; readonly bytes: number }, bound: MaterializationLagBound): boolean {
  return (bound.maxRecords > 0 && lag.records > bound.maxRecords) || (bound.maxBytes > 0 && lag.bytes > bound.maxBytes);
}
