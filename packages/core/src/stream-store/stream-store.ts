// The StreamStore: the protocol-neutral stream API of one process — create-or-get, head, append (with group
// commit), exact append recovery, read, seal, delete, trim and session takeover — over one MetadataStore and the
// installed WAL providers. It owns the per-stream lanes and the attempt registry; it does not own the metadata
// store or the providers (close() leaves them open).
import type { AppendAttempt, RecoveryOutcome } from "../lane/append-attempt.js";
import { appendFailure } from "../errors/append-failure.js";
import { AttemptRegistry } from "../append/attempt-registry.js";
import { buildAppendResult } from "../append/build-append-result.js";
import { Deadline } from "../timing/deadline.js";
import { ProviderRegistry } from "../profiles/provider-registry.js";
import { resolveExecutionPlan } from "../profiles/resolve-execution-plan.js";
import { runAppendPipeline } from "../append/run-append-pipeline.js";
import { validateBatch } from "../append/validate-batch.js";
import type { AppendBatch, AppendOptions, AppendResult, ReadOptions, ReadResult } from "../domain/append-types.js";
import type { StorageProfile, StorageProfileName } from "../domain/storage-profile.js";
import type { StreamHead } from "../domain/stream-head.js";
import type { AppendAttemptId } from "../errors/append-outcome.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { LaneOperation } from "../lane/lane-operation.js";
import { PendingAppendBudget } from "../lane/pending-append-budget.js";
import { loadHead } from "../records/load-head.js";
import { PendingAppend } from "../lane/pending-append.js";
import { StreamLane } from "../lane/stream-lane.js";
import { applyHeadTransition, type HeadTransition } from "../lifecycle/apply-head-transition.js";
import { createStreamHead } from "../lifecycle/create-stream-head.js";
import { planLifecycleTransition } from "../lifecycle/plan-lifecycle-transition.js";
import { canonicalizeProfile } from "../profiles/canonicalize-profile.js";
import { readStream } from "../read/read-stream.js";
import { recoverAttempt } from "../recovery/recover-attempt.js";
import { planSession, type SessionPlan } from "../session/plan-session.js";
import { sameSession } from "../session/same-session.js";
import { ReadResolutionCache } from "../read/read-resolution-cache.js";
import { ReadPins } from "../reclamation/read-pins.js";
import type { StoreContext } from "./store-context.js";
import { StreamKeyspace } from "../records/stream-keyspace.js";
import type { StreamStoreOptions } from "./stream-store-options.js";
import { raceAbort } from "../timing/race-abort.js";

/** Options of calls that take a deadline. */
export interface OperationDeadlineOptions {
  readonly signal?: AbortSignal;
  /** Overall deadline of the call (default 30 s). */
  readonly timeoutMs?: number;
}

export interface CreateStreamOptions extends OperationDeadlineOptions {
  /** A canonical profile or the `OBJECT_WAL` alias (stored as `OBJECT_WAL_SYNC_OBJECT`). */
  readonly profile: StorageProfileName;
  /** Immutable attributes; when given for an existing stream they must match. */
  readonly attributes?: Readonly<Record<string, string>>;
}

export interface CreateStreamResult {
  readonly streamId: string;
  readonly head: StreamHead;
  /** False when the stream already existed (create-or-get). */
  readonly created: boolean;
}

export interface AcquireSessionOptions extends OperationDeadlineOptions {
  /** Take a new epoch even over another writer's live session (an ownership change decided elsewhere). */
  readonly preempt?: boolean;
}

const DEFAULT_SESSION_TTL_MS = 30_000;
/** Append groups of one stream in flight at once unless `pipelineDepth` says otherwise. */
const DEFAULT_PIPELINE_DEPTH = 4;

/**
 * One process's view of a Nereus cluster's streams. Invariants: an append succeeds only after its head CAS;
 * every failed append carries an outcome (and an attempt id unless KNOWN_NOT_COMMITTED); appends of one stream
 * from this process commit in call order; a capability or validation failure happens before any WAL I/O.
 * `close()` is idempotent; afterwards every call fails with STORAGE_CLOSED.
 */
export class StreamStore implements AsyncDisposable {
  readonly #context: StoreContext;
  readonly #lanes = new Map<string, StreamLane>();
  /** Profile of each stream this process has seen (immutable); a pending load is shared so callers stay in order. */
  readonly #profiles = new Map<string, Promise<StorageProfile>>();
  /** The settled values of `#profiles` (what a caller may use without awaiting). */
  readonly #knownProfiles = new Map<string, StorageProfile>();
  /** Callers of each stream that are awaiting `#profileOf` and have not entered the lane yet. */
  readonly #profileWaiters = new Map<string, number>();
  readonly #closing = new AbortController();
  readonly #recoveryTimers = new Set<ReturnType<typeof setTimeout>>();
  readonly #budget: PendingAppendBudget;
  #closed: Promise<void> | undefined;

  constructor(options: StreamStoreOptions) {
    const ttl = options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS;
    const groupCommit =
      options.groupCommit === false
        ? undefined
        : (options.groupCommit ?? { maxBytes: 8 * 1024 * 1024, maxEntries: 10_000 });
    const autoRecovery =
      options.autoRecovery === false ? undefined : (options.autoRecovery ?? { minDelayMs: 10, maxDelayMs: 2_000 });
    checkPositive("sessionTtlMs", ttl);
    const pipelineDepth = options.pipelineDepth ?? DEFAULT_PIPELINE_DEPTH;
    if (!Number.isSafeInteger(pipelineDepth) || pipelineDepth < 1 || pipelineDepth > 64)
      throw invalid(`pipelineDepth must be an integer in [1, 64], got ${String(options.pipelineDepth)}`);
    this.#budget = new PendingAppendBudget(options.maxPendingAppends, options.maxPendingBytes);
    if (typeof options.writerId !== "string" || options.writerId.length === 0)
      throw invalid("writerId must be a non-empty string");
    this.#context = {
      metadata: options.metadata,
      keyspace: new StreamKeyspace(options.cluster),
      providers: new ProviderRegistry(options),
      writerId: options.writerId,
      clock: options.clock ?? Date.now,
      sessionPolicy: {
        ttlMs: ttl,
        renewBeforeMs: options.sessionRenewBeforeMs ?? Math.floor(ttl / 3),
        stealExpired: options.stealExpiredSessions ?? true,
      },
      admissionHooks: options.admissionHooks ?? [],
      stepHooks: options.stepHooks ?? {},
      attempts: new AttemptRegistry(options.retainedAttempts),
      limits: {
        chainSearchBudget: options.chainSearchBudget ?? 10_000,
        repairBudget: options.repairBudget ?? 256,
        compatibleRetries: 16,
        groupCommit,
        pipelineDepth,
        autoRecovery,
      },
      closing: this.#closing.signal,
      readCache: new ReadResolutionCache(),
      readPins: options.readPins ?? new ReadPins(),
      onSuspended: (attempt) => this.#scheduleRecovery(attempt, autoRecovery?.minDelayMs ?? 0),
    };
  }

  /** The pins of the targets this store's reads are using (shared with a collector of the same process). */
  get readPins(): ReadPins {
    return this.#context.readPins;
  }

  /** This process's run id (the prefix of every attempt id it hands out). */
  get processRunId(): string {
    return this.#context.attempts.processRunId;
  }

  /**
   * Creates the stream `name` or returns it when it exists (the id is derived from the name; one put-if-absent).
   * Fails closed with UNSUPPORTED_STORAGE_PROFILE when this runtime cannot run the profile; an existing stream
   * keeps its profile — a different requested profile is refused with STREAM_ALREADY_EXISTS naming both.
   */
  async createStream(name: string, options: CreateStreamOptions): Promise<CreateStreamResult> {
    this.#checkOpen();
    const profile = canonicalizeProfile(options.profile);
    resolveExecutionPlan(this.#context.providers, profile);
    const deadline = this.#deadline(options);
    try {
      const { head, created } = await createStreamHead(this.#context, {
        name,
        profile,
        attributes: options.attributes,
        signal: deadline.signal,
      });
      this.#setProfile(head.head.streamId, head.head.profile);
      return { streamId: head.head.streamId, head: head.head, created };
    } finally {
      deadline.dispose();
    }
  }

  /** The current head (one linearizable read). Throws STREAM_NOT_FOUND. */
  async getHead(streamId: string, options: OperationDeadlineOptions = {}): Promise<StreamHead> {
    this.#checkOpen();
    const deadline = this.#deadline(options);
    try {
      const { head } = await loadHead(this.#context.metadata, this.#context.keyspace, streamId, deadline.signal);
      this.#setProfile(streamId, head.profile);
      return head;
    } finally {
      deadline.dispose();
    }
  }

  /**
   * Appends `batch` and resolves once the profile's completion boundary holds. The committed range is dense and
   * starts at the committed end (`options.expectedStartOffset` makes that a precondition). Rejects with
   * `AppendFailedError`: KNOWN_NOT_COMMITTED (safe to retry), MAY_HAVE_COMMITTED or KNOWN_COMMITTED (call
   * `recoverAppend` with its attempt id; never append the same data again).
   */
  async append(streamId: string, batch: AppendBatch, options: AppendOptions = {}): Promise<AppendResult> {
    let pending: PendingAppend;
    let deadline: Deadline | undefined;
    try {
      this.#checkOpen();
      const validated = validateBatch(batch);
      const expected = options.expectedStartOffset;
      if (expected !== undefined && (!Number.isSafeInteger(expected) || expected < 0)) {
        throw invalid(`expectedStartOffset must be a non-negative safe integer, got ${String(expected)}`);
      }
      deadline = this.#deadline(options);
      let profile = this.#readyProfile(streamId, deadline);
      if (profile === undefined) {
        const resumed = this.#waitForProfile(streamId);
        try {
          profile = await this.#profileOf(streamId, deadline);
        } finally {
          resumed();
        }
      }
      const plan = resolveExecutionPlan(this.#context.providers, profile, options.durability, options.completionPolicy);
      this.#budget.reserve(validated.logicalBytes);
      pending = new PendingAppend(validated, plan, expected, deadline);
    } catch (error) {
      deadline?.dispose();
      throw appendFailure(error, "KNOWN_NOT_COMMITTED");
    }
    const bytes = pending.batch.logicalBytes;
    this.#lane(streamId).enqueue(pending);
    try {
      return await pending.promise;
    } finally {
      this.#budget.release(bytes);
      // Settled: the pipeline no longer needs this caller's deadline (a group goes on under its own union).
      pending.deadline.dispose();
    }
  }

  /**
   * Resolves exactly the attempt a failed append named — never a new physical write. Returns the ORIGINAL result
   * when it committed; throws `AppendFailedError` KNOWN_NOT_COMMITTED when proven absent (the lane is released),
   * MAY_HAVE_COMMITTED / KNOWN_COMMITTED (same attempt id) when still unresolved, UNKNOWN_APPEND_ATTEMPT for an id
   * this process does not know. Concurrent calls for one attempt share one recovery; results are cached.
   */
  async recoverAppend(
    streamId: string,
    attemptId: AppendAttemptId,
    options: OperationDeadlineOptions = {},
  ): Promise<AppendResult> {
    this.#checkOpen();
    const entry = this.#context.attempts.lookup(attemptId);
    if (entry === undefined) {
      throw new NereusError(
        ErrorCode.UNKNOWN_APPEND_ATTEMPT,
        `append attempt ${attemptId} is not known to this process`,
        { retryable: false },
      );
    }
    const { attempt, memberIndex } = entry;
    if (attempt.streamId !== streamId) throw invalid(`append attempt ${attemptId} belongs to another stream`);
    const member = attempt.members[memberIndex];
    if (member === undefined) throw new TypeError("attempt registry points at a missing member");
    const deadline = this.#deadline(options);
    let outcome: RecoveryOutcome;
    try {
      outcome = await raceDeadline(
        recoverAttempt(this.#context, this.#lane(streamId), attempt, deadline.signal),
        deadline,
      );
    } catch (error) {
      throw appendFailure(error, attempt.stage === "COMMITTED" ? "KNOWN_COMMITTED" : "MAY_HAVE_COMMITTED", attemptId);
    } finally {
      // Either recovery finished or the deadline aborted it (an aborted deadline stays aborted).
      deadline.dispose();
    }
    if (outcome.kind === "resolved") {
      const resolution = outcome.resolution;
      if (resolution.kind === "committed") return buildAppendResult(resolution.intent, member);
      if (resolution.kind === "trimmed") {
        throw appendFailure(
          resolution.error,
          resolution.committed ? "KNOWN_COMMITTED" : "MAY_HAVE_COMMITTED",
          attemptId,
        );
      }
      throw appendFailure(resolution.error, "KNOWN_NOT_COMMITTED");
    }
    throw appendFailure(
      outcome.reason,
      attempt.stage === "COMMITTED" ? "KNOWN_COMMITTED" : "MAY_HAVE_COMMITTED",
      attemptId,
    );
  }

  /** Reads committed entries from `offset` (see `ReadOptions`); at/after the end: empty with `endOfStream`. */
  async read(streamId: string, offset: number, options: ReadOptions = {}): Promise<ReadResult> {
    this.#checkOpen();
    const deadline = this.#deadline(options);
    try {
      return await readStream(this.#context, streamId, offset, options, deadline);
    } finally {
      deadline.dispose();
    }
  }

  /** ACTIVE → SEALED (idempotent). Waits for this process's earlier appends of the stream. */
  async seal(streamId: string, options: OperationDeadlineOptions = {}): Promise<StreamHead> {
    return this.#transition(streamId, options, (head) => planLifecycleTransition(head, { kind: "seal" }));
  }

  /** ACTIVE/SEALED → DELETING → DELETED, one head CAS each (resumes a half-done delete; idempotent). */
  async delete(streamId: string, options: OperationDeadlineOptions = {}): Promise<StreamHead> {
    return this.#laneOperation(streamId, options, async (lane, deadline) => {
      await applyHeadTransition(
        this.#context,
        lane,
        (head) => planLifecycleTransition(head, { kind: "begin-delete" }),
        deadline,
      );
      return applyHeadTransition(
        this.#context,
        lane,
        (head) => planLifecycleTransition(head, { kind: "finish-delete" }),
        deadline,
      );
    });
  }

  /** Raises the trim offset (monotone; never beyond the committed end). Reads below it fail OFFSET_TRIMMED. */
  async trim(streamId: string, trimOffset: number, options: OperationDeadlineOptions = {}): Promise<StreamHead> {
    return this.#transition(streamId, options, (head) => planLifecycleTransition(head, { kind: "trim", trimOffset }));
  }

  /**
   * Acquires (or renews) this writer's append session on the stream now, instead of inside the next append.
   * With `preempt` it takes a new epoch over another writer's live session: that writer's in-flight and later
   * appends fail FENCED_APPEND.
   */
  async acquireSession(streamId: string, options: AcquireSessionOptions = {}): Promise<StreamHead> {
    return this.#laneOperation(streamId, options, async (lane, deadline) => {
      let plan: SessionPlan | undefined;
      const head = await applyHeadTransition(
        this.#context,
        lane,
        (current) => {
          if (plan !== undefined && current.session !== undefined && sameSession(current.session, plan.next))
            return undefined;
          if (current.state !== "ACTIVE") {
            throw new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `stream ${streamId} is ${current.state}`, {
              retryable: false,
            });
          }
          plan = planSession({
            head: current,
            writerId: this.#context.writerId,
            held: options.preempt === true ? undefined : lane.heldSession,
            nowMillis: this.#context.clock(),
            policy: this.#context.sessionPolicy,
            preempt: options.preempt,
          });
          return plan.changed ? { ...current, session: plan.next } : undefined;
        },
        deadline,
      );
      if (plan !== undefined) lane.heldSession = plan.next;
      return head;
    });
  }

  /** Idempotent: fails queued work with STORAGE_CLOSED, aborts running work, waits for lanes to settle. */
  close(): Promise<void> {
    this.#closed ??= this.#close();
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #close(): Promise<void> {
    this.#closing.abort(new NereusError(ErrorCode.STORAGE_CLOSED, "stream store closed", { retryable: false }));
    for (const timer of this.#recoveryTimers) clearTimeout(timer);
    this.#recoveryTimers.clear();
    const closed = new NereusError(ErrorCode.STORAGE_CLOSED, "stream store closed", { retryable: false });
    for (const lane of this.#lanes.values()) lane.failQueued(closed);
    await Promise.all([...this.#lanes.values()].map((lane) => lane.settled()));
  }

  #transition(streamId: string, options: OperationDeadlineOptions, transition: HeadTransition): Promise<StreamHead> {
    return this.#laneOperation(streamId, options, (lane, deadline) =>
      applyHeadTransition(this.#context, lane, transition, deadline),
    );
  }

  async #laneOperation<T>(
    streamId: string,
    options: OperationDeadlineOptions,
    body: (lane: StreamLane, deadline: Deadline) => Promise<T>,
  ): Promise<T> {
    this.#checkOpen();
    const deadline = this.#deadline(options);
    try {
      if (this.#readyProfile(streamId, deadline) === undefined) {
        const resumed = this.#waitForProfile(streamId);
        try {
          await this.#profileOf(streamId, deadline);
        } finally {
          resumed();
        }
      }
      const lane = this.#lane(streamId);
      const operation = new LaneOperation<T>(deadline, () => body(lane, deadline));
      lane.enqueue(operation);
      return await operation.promise;
    } finally {
      // The operation settled: it ran to completion, or it never ran (expired, failed, or the store closed).
      deadline.dispose();
    }
  }

  #lane(streamId: string): StreamLane {
    let lane = this.#lanes.get(streamId);
    if (lane === undefined) {
      lane = new StreamLane(
        streamId,
        (owner, members, link, predecessor) => runAppendPipeline(this.#context, owner, members, link, predecessor),
        this.#context.limits.groupCommit,
        this.#context.limits.pipelineDepth,
      );
      this.#lanes.set(streamId, lane);
    }
    return lane;
  }

  #setProfile(streamId: string, profile: StorageProfile): void {
    this.#profiles.set(streamId, Promise.resolve(profile));
    this.#knownProfiles.set(streamId, profile);
  }

  /**
   * The stream's profile when a caller may enter the lane at once: it is known and no earlier caller of the stream
   * is still waiting for it (entering now keeps call order). Undefined otherwise: await `#profileOf` between
   * `#waitForProfile` and its release. Throws what `#profileOf` would for a deadline that already ended.
   */
  #readyProfile(streamId: string, deadline: Deadline): StorageProfile | undefined {
    if (this.#profileWaiters.has(streamId)) return undefined;
    const known = this.#knownProfiles.get(streamId);
    if (known !== undefined && deadline.aborted) throw deadline.error("stream store call");
    return known;
  }

  /**
   * Counts the caller as waiting for the stream's profile; call the returned function once it resumed. It must
   * release and enter the lane in the same synchronous step, so no later caller slips ahead via `#readyProfile`.
   */
  #waitForProfile(streamId: string): () => void {
    this.#profileWaiters.set(streamId, (this.#profileWaiters.get(streamId) ?? 0) + 1);
    return () => {
      const waiting = (this.#profileWaiters.get(streamId) ?? 1) - 1;
      if (waiting > 0) this.#profileWaiters.set(streamId, waiting);
      else this.#profileWaiters.delete(streamId);
    };
  }

  /**
   * The stream's (immutable) profile. Every call that enters a lane awaits this first (unless `#readyProfile`
   * lets it in at once), and all callers of one stream await the same promise, so they reach the lane in call
   * order. The first load also warms an idle lane's head cache.
   */
  #profileOf(streamId: string, deadline: Deadline): Promise<StorageProfile> {
    let profile = this.#profiles.get(streamId);
    if (profile === undefined) {
      // Shared by every caller, so it is bounded by the store's default deadline, not by the first caller's.
      const shared = Deadline.start(undefined, undefined, this.#closing.signal);
      profile = loadHead(this.#context.metadata, this.#context.keyspace, streamId, shared.signal).then((head) => {
        shared.dispose();
        const lane = this.#lane(streamId);
        if (lane.idle && lane.cachedHead === undefined && lane.suspendedBy === undefined) lane.cachedHead = head;
        if (this.#profiles.get(streamId) === loading) this.#knownProfiles.set(streamId, head.head.profile);
        return head.head.profile;
      });
      const loading = profile;
      this.#profiles.set(streamId, loading);
      loading.catch(() => {
        shared.dispose();
        if (this.#profiles.get(streamId) === loading) this.#profiles.delete(streamId);
      });
    }
    return raceDeadline(profile, deadline);
  }

  #deadline(options: OperationDeadlineOptions): Deadline {
    return Deadline.start(options.timeoutMs, options.signal, this.#closing.signal);
  }

  #checkOpen(): void {
    if (this.#closing.signal.aborted)
      throw new NereusError(ErrorCode.STORAGE_CLOSED, "stream store is closed", { retryable: false });
  }

  #scheduleRecovery(attempt: AppendAttempt, delayMs: number): void {
    const policy = this.#context.limits.autoRecovery;
    if (policy === undefined || this.#closing.signal.aborted) return;
    const timer = setTimeout(() => {
      this.#recoveryTimers.delete(timer);
      const deadline = Deadline.start(undefined, undefined, this.#closing.signal);
      void recoverAttempt(this.#context, this.#lane(attempt.streamId), attempt, deadline.signal).then((outcome) => {
        deadline.dispose();
        const permanent =
          outcome.kind === "unresolved" && outcome.reason.code === ErrorCode.METADATA_INVARIANT_VIOLATION;
        if (outcome.kind === "unresolved" && !permanent && attempt.stage !== "COMMITTED") {
          this.#scheduleRecovery(attempt, Math.min(Math.max(delayMs * 2, policy.minDelayMs), policy.maxDelayMs));
        }
      });
    }, delayMs);
    timer.unref?.();
    this.#recoveryTimers.add(timer);
  }
}

/** Resolves/rejects with `promise`, or rejects with the deadline's error when it ends first. */
function raceDeadline<T>(promise: Promise<T>, deadline: Deadline, what = "stream store call"): Promise<T> {
  return raceAbort(promise, deadline.signal, () => deadline.error(what));
}

function checkPositive(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1)
    throw invalid(`${name} must be a positive integer, got ${String(value)}`);
}

function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}
