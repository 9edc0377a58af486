// What the append pipeline needs from the store that runs it: metadata and keyspace, writer identity, clock,
// session policy, hooks, the attempt registry and the pipeline's limits. Recovery finishes attempts through the
// same steps, so it takes this context too. Declared here, by its user; the store's `StoreContext` provides it.
import type { AdmissionHook } from "../spi/completion.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { AppendAttempt } from "../lane/append-attempt.js";
import type { StreamKeyspace } from "../records/stream-keyspace.js";
import type { SessionPolicy } from "../session/plan-session.js";
import type { AppendStepHooks } from "./append-step-hooks.js";
import type { AttemptRegistry } from "./attempt-registry.js";

/** Bounds of the append pipeline and of recovery; defaults in docs/architecture.md §10. */
export interface AppendLimits {
  /** Commit intents a replay search may read before it reports "unknown" (exhaustion is not proof). */
  readonly chainSearchBudget: number;
  /** Head CAS retries after compatible head changes (renew, trim) before METADATA_CONDITION_FAILED. */
  readonly compatibleRetries: number;
}

/** Read-only wiring of the append pipeline, shared by every stream of one store. */
export interface AppendContext {
  readonly metadata: MetadataStore;
  readonly keyspace: StreamKeyspace;
  readonly writerId: string;
  /** Wall clock in milliseconds (session expiry, createdAt). Deadlines use the monotone clock instead. */
  readonly clock: () => number;
  readonly sessionPolicy: SessionPolicy;
  readonly admissionHooks: readonly AdmissionHook[];
  readonly stepHooks: AppendStepHooks;
  readonly attempts: AttemptRegistry;
  readonly limits: AppendLimits;
  /** Aborts when the store closes; every deadline includes it. */
  readonly closing: AbortSignal;
  /** Called when an attempt leaves its lane suspended (schedules automatic recovery). */
  readonly onSuspended: (attempt: AppendAttempt) => void;
}
