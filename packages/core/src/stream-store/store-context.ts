// The shared, read-only wiring every pipeline step of one StreamStore receives: metadata, keyspace, providers,
// identity, clock, policies and limits. Built once by `createStreamStore`; holds no per-stream state (lanes do).
// It is the union of what each part declares it needs (AppendContext, ReadContext, LifecycleContext), so those
// parts never import the store above them.
import type { AppendContext, AppendLimits } from "../append/append-context.js";
import type { LifecycleContext } from "../lifecycle/lifecycle-context.js";
import type { ReadContext, ReadLimits } from "../read/read-context.js";

/** Bounds of the pipeline; defaults in docs/architecture.md §10. */
interface StoreLimits extends AppendLimits, ReadLimits {
  /** Group commit bounds; `undefined` disables merging. */
  readonly groupCommit: { readonly maxBytes: number; readonly maxEntries: number } | undefined;
  /** Append groups of one stream in flight at once (≥ 1). */
  readonly pipelineDepth: number;
  /** Backoff of the automatic recovery of a suspended lane; `undefined` leaves recovery to `recoverAppend`. */
  readonly autoRecovery: { readonly minDelayMs: number; readonly maxDelayMs: number } | undefined;
}

/** Everything one store's append pipeline, read path, recovery and lifecycle transitions share. */
export interface StoreContext extends AppendContext, ReadContext, LifecycleContext {
  readonly limits: StoreLimits;
}
