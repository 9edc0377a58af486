// The shared, read-only wiring every pipeline step of one StreamStore receives: metadata, keyspace, providers,
// identity, clock, policies and limits. Built once by `createStreamStore`; holds no per-stream state (lanes do).
import type { AppendAttempt } from "../append/append-attempt.js";
import type { AppendStepHooks } from "../append/append-step-hooks.js";
import type { AttemptRegistry } from "../append/attempt-registry.js";
import type { ProviderRegistry } from "../append/provider-registry.js";
import type { SessionPolicy } from "../session/plan-session.js";
import type { AdmissionHook } from "../spi/completion.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { ReadResolutionCache } from "../read/read-resolution-cache.js";
import type { StreamKeyspace } from "./stream-keyspace.js";

/** Bounds of the pipeline; defaults in docs/architecture.md §10. */
export interface StoreLimits {
  /** Commit intents a replay search may read before it reports "unknown" (exhaustion is not proof). */
  readonly chainSearchBudget: number;
  /** Commits one read-path repair may walk before it fails with retriable READ_RESOLUTION_FAILED. */
  readonly repairBudget: number;
  /** Head CAS retries after compatible head changes (renew, trim) before METADATA_CONDITION_FAILED. */
  readonly compatibleRetries: number;
  /** Group commit bounds; `undefined` disables merging. */
  readonly groupCommit: { readonly maxBytes: number; readonly maxEntries: number } | undefined;
  /** Append groups of one stream in flight at once (≥ 1). */
  readonly pipelineDepth: number;
  /** Backoff of the automatic recovery of a suspended lane; `undefined` leaves recovery to `recoverAppend`. */
  readonly autoRecovery: { readonly minDelayMs: number; readonly maxDelayMs: number } | undefined;
}

export interface StoreContext {
  readonly metadata: MetadataStore;
  readonly keyspace: StreamKeyspace;
  readonly providers: ProviderRegistry;
  readonly writerId: string;
  /** Wall clock in milliseconds (session expiry, createdAt). Deadlines use the monotone clock instead. */
  readonly clock: () => number;
  readonly sessionPolicy: SessionPolicy;
  readonly admissionHooks: readonly AdmissionHook[];
  readonly stepHooks: AppendStepHooks;
  readonly attempts: AttemptRegistry;
  readonly limits: StoreLimits;
  /** Aborts when the store closes; every deadline includes it. */
  readonly closing: AbortSignal;
  /** Index and generation resolutions the read path reuses (dropped per stream on trim, delete, quarantine). */
  readonly readCache: ReadResolutionCache;
  /** Called when an attempt leaves its lane suspended (schedules automatic recovery). */
  readonly onSuspended: (attempt: AppendAttempt) => void;
}
