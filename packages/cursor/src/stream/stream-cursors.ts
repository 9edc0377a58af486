// The cursors of one stream opened for writing by one owner session: lookup, create/recreate, delete, reset, and the
// retention record's floor raise and trim. Transitions that touch the retention record run one at a time per
// stream; one that finds another in flight fails CURSOR_BUSY (retryable) at once. A pending transition a failed
// call left behind is completed, exactly, before the next one starts. Acks and forward moves go through the
// cursor handles and never wait for retention work.
import { ErrorCode, NereusError } from "@nereus/core";
import { type BatchBits, classifyBatchBits } from "../ack-state/batch-bits.js";
import type { MutationResult } from "../cursor/ack-group-commit.js";
import type { CursorCounters } from "../cursor/cursor-counters.js";
import type { CursorHandle } from "../cursor/cursor-handle.js";
import { deletedCursorRecord } from "../cursor/cursor-record-transforms.js";
import { type HydratedCursor, hydratedCursorOf } from "../cursor/hydrated-cursor.js";
import { checkLifecycle, stateConflict } from "../cursor/mutation-errors.js";
import { OperationDeadline } from "../cursor/operation-deadline.js";
import { checkUserCursorProperties } from "../cursor/property-maps.js";
import type { PartialAck } from "../domain/ack-types.js";
import type { CursorRetentionRecord, ProtectionIntent } from "../domain/cursor-records.js";
import { cursorRootKey } from "../keys/cursor-keys.js";
import { cursorStateCodec } from "../records/cursor-state-codec.js";
import type { OwnerContext } from "../store/owner-context.js";
import {
  type InitialPosition,
  checkInitialPosition,
  checkStreamOffset,
  resolveInitialPosition,
  resolveResetTarget,
} from "./cursor-positions.js";
import { type CursorSlot, CursorSlots } from "./cursor-slots.js";
import { loadCursorIfPresent } from "./load-stream-cursors.js";
import { ownedPut } from "./owned-put.js";
import { type ProtectionOutcome, finishPendingProtection, runProtection } from "./protection-protocol.js";
import { raiseProtectedFloor } from "./raise-floor.js";
import { resetTargetOf } from "./reset-target.js";
import { newRandomId128 } from "./random-id.js";
import type { RetentionRoot } from "./retention-root.js";
import { isInterruption, outcomeError, stateConflictOf, trimmedError } from "./stream-operation-errors.js";
import { checkTrimRequest, finishPendingTrim, runTrim } from "./trim-protocol.js";

/** Options of every stream-level operation. */
export interface StreamOperationOptions {
  readonly signal?: AbortSignal;
}

export interface CreateCursorOptions extends StreamOperationOptions {
  /** Where the cursor starts (default `"latest"`): an offset, the stream's trim, or its committed end. */
  readonly initialOffset?: InitialPosition;
  /** Cursor properties (keys starting `#nereus.` are reserved). */
  readonly properties?: ReadonlyMap<string, string>;
}

export interface ResetCursorOptions extends StreamOperationOptions {
  /** Batch indexes of the target entry acknowledged after the reset. */
  readonly partial?: BatchBits;
}

const NO_PROPERTIES: ReadonlyMap<string, string> = new Map();

/**
 * One stream's cursors under one owner session (see `CursorStore.openStream`).
 * Invariant kept by every operation: stream trim <= lastCompletedTrimOffset <= protectedFloorOffset <= markDelete
 * of every ACTIVE cursor. Once another session opened the stream every mutation fails CURSOR_FENCED; after `close`
 * every mutation fails STORAGE_CLOSED.
 */
export class StreamCursors {
  readonly streamId: string;
  /** The owner session every write of this object is fenced on (32 hex digits). */
  readonly ownerSessionId: string;
  readonly #owner: OwnerContext;
  readonly #root: RetentionRoot;
  readonly #slots: CursorSlots;
  #inFlight: string | undefined;
  #fenced: NereusError | undefined;
  #closed = false;

  /** Built by `CursorStore.openStream` once the stream is claimed, recovered and loaded. */
  constructor(root: RetentionRoot, cursors: readonly HydratedCursor[], counters: CursorCounters) {
    this.#owner = root.owner;
    this.streamId = root.owner.streamId;
    this.ownerSessionId = root.owner.ownerSessionId;
    this.#root = root;
    this.#slots = new CursorSlots(root.owner, counters);
    for (const cursor of cursors) this.#slots.install(cursor);
  }

  /** The open handles of the ACTIVE cursors, by name. */
  list(): CursorHandle[] {
    return this.#slots.activeHandles();
  }

  /** The handle of the ACTIVE cursor `name`, or undefined. Throws INVALID_ARGUMENT for an invalid name. */
  get(name: string): CursorHandle | undefined {
    const { slot } = this.#slots.lookup(name);
    return slot?.kind === "active" ? slot.handle : undefined;
  }

  /** The retention record as this session last wrote it. */
  retention(): CursorRetentionRecord {
    return this.#root.current;
  }

  /**
   * Creates cursor `name` (or recreates a deleted one: generation + 1) at `initialOffset`, through the protection
   * protocol. Fails CURSOR_ALREADY_EXISTS for an ACTIVE cursor, OFFSET_TRIMMED below the stream's trim (an offset
   * beyond the committed end starts at the end), METADATA_LIMIT_EXCEEDED when the stream holds
   * `limits.maxCursorsPerStream` cursor records (tombstones included), CURSOR_BUSY while another retention
   * transition runs.
   */
  async createCursor(name: string, options: CreateCursorOptions = {}): Promise<CursorHandle> {
    const position = options.initialOffset ?? "latest";
    checkInitialPosition(position);
    const properties = options.properties ?? NO_PROPERTIES;
    checkUserCursorProperties(properties);
    this.#requireAbsent(name);
    return this.#retentionOperation(`create cursor ${JSON.stringify(name)}`, options.signal, async (signal) => {
      const { hash, slot } = this.#requireAbsent(name);
      if (slot === undefined && this.#slots.size >= this.#owner.env.limits.maxCursorsPerStream) {
        throw new NereusError(
          ErrorCode.METADATA_LIMIT_EXCEEDED,
          `stream ${this.streamId} holds ${String(this.#slots.size)} cursor records; limits.maxCursorsPerStream is ${String(this.#owner.env.limits.maxCursorsPerStream)}`,
          { retryable: false },
        );
      }
      const head = await this.#owner.env.streams.getHead(this.streamId, { signal });
      const previous = slot?.cursor;
      const intent = this.#intent(name, hash, previous === undefined ? "CREATE" : "RECREATE", {
        expectedGeneration: previous?.root.cursorGeneration ?? 0,
        target: resolveInitialPosition(position, head),
        targetPartial: undefined,
        initialProperties: properties,
      });
      const outcome = await runProtection(this.#root, intent, previous, signal);
      const handle = await this.#adoptOutcome(outcome, intent, signal);
      if (handle === undefined) throw stateConflictOf(intent);
      return handle;
    });
  }

  /**
   * Deletes cursor `name`: its root becomes a DELETED tombstone (generation, epoch and final markDelete kept), its
   * handle closes. Runs in the cursor's lane after every mutation submitted before. Fails CURSOR_NOT_FOUND when no
   * ACTIVE cursor has the name.
   */
  async deleteCursor(name: string, options: StreamOperationOptions = {}): Promise<void> {
    const handle = this.#requireActive(name);
    const tombstone = await this.#operation(`delete cursor ${JSON.stringify(name)}`, options.signal, (signal) =>
      handle.runExclusive(async (current) => {
        checkLifecycle(current.root, handle.generation);
        const { env, ownerSessionId } = this.#owner;
        const record = { ...deletedCursorRecord(current.root, env.now()), ownerSessionId };
        const key = cursorRootKey(env.cluster, this.streamId, record.cursorNameHash);
        const written = await ownedPut(this.#owner, key, current.modRevision, cursorStateCodec.encode(record), signal);
        if (!written.ok) throw stateConflict(current.root, "cursor delete");
        return hydratedCursorOf(record, written.modRevision);
      }),
    );
    this.#slots.install(tombstone);
  }

  /**
   * Resets cursor `name` so that `target` is the next entry to deliver (with `partial`, some batch indexes of it
   * acknowledged). Forward (at or above markDelete): one CAS on the root, epoch + 1. Backward: through the
   * protection protocol (CURSOR_BUSY while another retention transition runs). Fails OFFSET_TRIMMED below the
   * stream's trim; a target beyond the committed end lands on the end.
   */
  async resetCursor(name: string, target: number, options: ResetCursorOptions = {}): Promise<MutationResult> {
    checkStreamOffset(target, "reset target");
    const partial = options.partial;
    if (partial !== undefined) classifyBatchBits(partial);
    const handle = this.#requireActive(name);
    const head = await this.#operation("cursor reset", options.signal, (signal) =>
      this.#owner.env.streams.getHead(this.streamId, { signal }),
    );
    const resolved = resolveResetTarget(target, head, partial);
    if (resolved >= handle.markDeleteOffset) return handle.resetForward(resolved, options);
    return this.#retentionOperation(`reset cursor ${JSON.stringify(name)}`, options.signal, async (signal) => {
      await handle.runExclusive(async (current) => {
        checkLifecycle(current.root, handle.generation);
        const intent = this.#intent(name, handle.cursorNameHash, "BACKWARD_RESET", {
          expectedGeneration: current.root.cursorGeneration,
          ...resetTargetOf(resolved, partial),
          initialProperties: NO_PROPERTIES,
        });
        const outcome = await runProtection(this.#root, intent, current, signal);
        if (outcome.kind !== "applied") throw outcomeError(this.streamId, outcome, intent);
        return outcome.cursor;
      });
      return { alreadyApplied: false };
    });
  }

  /**
   * Raises the protected floor to the lowest markDelete of the ACTIVE cursors (the committed end without cursors),
   * never lowering it. Returns the retention record. CURSOR_BUSY while another retention transition runs.
   */
  raiseFloor(options: StreamOperationOptions = {}): Promise<CursorRetentionRecord> {
    return this.#retentionOperation("raise the protected floor", options.signal, (signal) =>
      raiseProtectedFloor(this.#root, signal),
    );
  }

  /**
   * Trims the stream to `offset` through TRIM_PENDING (replayed exactly if interrupted). Needs
   * `offset <= protectedFloorOffset` and `offset <= committed end` (INVALID_ARGUMENT otherwise; raise the floor
   * first); an offset at or below the last completed trim changes nothing. Returns the retention record.
   */
  trim(offset: number, reason: string, options: StreamOperationOptions = {}): Promise<CursorRetentionRecord> {
    try {
      checkTrimRequest(offset, reason);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#retentionOperation(`trim to ${String(offset)}`, options.signal, (signal) =>
      runTrim(this.#root, offset, reason, signal),
    );
  }

  /** Refuses new operations and closes every cursor handle (waiting for their queued mutations). Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#slots.closeAll();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---- internals ----

  #intent(
    name: string,
    hash: string,
    kind: ProtectionIntent["kind"],
    fields: {
      readonly expectedGeneration: number;
      readonly target: number;
      readonly targetPartial: PartialAck | undefined;
      readonly initialProperties: ReadonlyMap<string, string>;
    },
  ): ProtectionIntent {
    const targetGeneration = kind === "BACKWARD_RESET" ? fields.expectedGeneration : fields.expectedGeneration + 1;
    const lowest = this.#root.current.lastCompletedTrimOffset;
    if (fields.target < lowest) throw trimmedError(this.streamId, fields.target, lowest);
    return {
      attemptId: newRandomId128(),
      kind,
      cursorName: name,
      cursorNameHash: hash,
      expectedGeneration: fields.expectedGeneration,
      targetGeneration,
      targetMarkDeleteOffset: fields.target,
      targetPartial: fields.targetPartial,
      initialProperties: fields.initialProperties,
      createdAtMillis: this.#owner.env.now(),
    };
  }

  /** The slot of `name`, which must not be an ACTIVE cursor (CURSOR_ALREADY_EXISTS). */
  #requireAbsent(name: string): { hash: string; slot: Extract<CursorSlot, { kind: "deleted" }> | undefined } {
    const { hash, slot } = this.#slots.lookup(name);
    if (slot?.kind === "active") {
      throw new NereusError(
        ErrorCode.CURSOR_ALREADY_EXISTS,
        `cursor ${JSON.stringify(name)} exists on stream ${this.streamId}`,
        {
          retryable: false,
        },
      );
    }
    return { hash, slot };
  }

  /** The handle of the ACTIVE cursor `name` (CURSOR_NOT_FOUND otherwise). */
  #requireActive(name: string): CursorHandle {
    this.#checkUsable();
    const handle = this.get(name);
    if (handle === undefined) {
      throw new NereusError(
        ErrorCode.CURSOR_NOT_FOUND,
        `cursor ${JSON.stringify(name)} does not exist on stream ${this.streamId}`,
        {
          retryable: false,
        },
      );
    }
    return handle;
  }

  /** Installs what a protection left, and returns the handle of the cursor when it is ACTIVE now. */
  async #adoptOutcome(
    outcome: ProtectionOutcome,
    intent: ProtectionIntent,
    signal: AbortSignal,
  ): Promise<CursorHandle | undefined> {
    if (outcome.kind === "applied") return this.#slots.install(outcome.cursor);
    if (outcome.kind === "trimmed") throw outcomeError(this.streamId, outcome, intent);
    const latest = await loadCursorIfPresent(this.#owner, intent.cursorNameHash, signal);
    if (latest !== undefined) this.#slots.install(latest);
    return undefined;
  }

  /**
   * Runs a retention transition: refuses (CURSOR_BUSY) while another one runs, reads the record back when a failed
   * write left it unknown, completes any transition left pending, then runs `work`.
   */
  async #retentionOperation<T>(
    what: string,
    callerSignal: AbortSignal | undefined,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    this.#checkUsable();
    if (this.#inFlight !== undefined) {
      throw new NereusError(
        ErrorCode.CURSOR_BUSY,
        `stream ${this.streamId}: cannot ${what} while ${this.#inFlight} is in progress`,
        { retryable: true },
      );
    }
    this.#inFlight = what;
    try {
      return await this.#operation(what, callerSignal, async (signal) => {
        await this.#root.sync(signal);
        await this.#finishPending(signal);
        return work(signal);
      });
    } finally {
      this.#inFlight = undefined;
    }
  }

  /** Completes the transition the retention record holds pending (none: nothing to do). */
  async #finishPending(signal: AbortSignal): Promise<void> {
    const { lifecycle, pendingProtection: intent } = this.#root.current;
    if (lifecycle === "TRIM_PENDING") {
      await finishPendingTrim(this.#root, signal);
      return;
    }
    if (intent === undefined) return;
    const slot = this.#slots.byHash(intent.cursorNameHash);
    if (slot?.kind === "active") {
      const latest = await slot.handle.runExclusive(async (current) => {
        const outcome = await finishPendingProtection(this.#root, current, signal);
        if (outcome.kind === "applied") return outcome.cursor;
        return (await loadCursorIfPresent(this.#owner, intent.cursorNameHash, signal)) ?? current;
      });
      this.#slots.install(latest);
      return;
    }
    const current = await loadCursorIfPresent(this.#owner, intent.cursorNameHash, signal);
    await this.#adoptOutcome(await finishPendingProtection(this.#root, current, signal), intent, signal);
  }

  /** Runs `work` under the operation's deadline; remembers CURSOR_FENCED; reports an expired deadline as such. */
  async #operation<T>(
    what: string,
    callerSignal: AbortSignal | undefined,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    this.#checkUsable();
    const deadline = OperationDeadline.start(this.#owner.env.limits.operationTimeoutMs, callerSignal);
    try {
      return await work(deadline.signal());
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.CURSOR_FENCED)) this.#fenced = error;
      if (deadline.expired() && isInterruption(error)) throw deadline.error(what, error);
      throw error;
    }
  }

  #checkUsable(): void {
    if (this.#fenced !== undefined) {
      throw new NereusError(ErrorCode.CURSOR_FENCED, this.#fenced.message, { retryable: false, cause: this.#fenced });
    }
    if (this.#closed) {
      throw new NereusError(ErrorCode.STORAGE_CLOSED, `cursors of stream ${this.streamId} are closed`, {
        retryable: false,
      });
    }
  }
}
