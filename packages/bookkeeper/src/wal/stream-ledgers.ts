// Ledger lifecycle of the streams this process writes (records: docs/architecture.md §8.2): which ledger the next write of a stream goes
// to, under which owner. Fast path: the process already holds a healthy write handle for the stream under the
// requesting owner (writer id + session epoch) and no rollover limit is reached — no metadata I/O at all. Every
// other case reconciles with the durable writer state by CAS:
//   - another owner's state: taken over by a higher epoch, or — when the stream head does not name that owner (its
//     takeover never committed) and the claim is older than a grace — by a requester not behind the head's
//     session; otherwise FENCED_APPEND;
//   - a ledger named by the state is sealed first: our own healthy handle is closed; any other ledger (the previous
//     owner's, or ours after a failed write) is recovery-opened — which fences its writer — and its root moves
//     ACTIVE → SEALING → SEALED with the recovered end. A new owner never appends to an old ledger;
//   - then a new ledger is allocated: state ALLOCATING (fresh allocation id, next segment sequence) → ledger created
//     (BookKeeper writes its metadata first; custom metadata names cluster, stream and allocation) → root
//     put-if-absent ACTIVE (an id whose root exists is never used) → state ACTIVE.
// A crash between create and root leaves an empty ledger whose custom metadata names the allocation; the ledger
// collector's sweep finds it and deletes it (src/reclamation/orphan-ledgers.ts), and since roots are written only if
// absent, a late allocation never uses it.
import { randomBytes } from "node:crypto";
import { ErrorCode, NereusError } from "@nereus/core";
import type { LedgerHandle } from "../client/ledger-handle.js";
import type { BookKeeperWalContext } from "./bookkeeper-wal-context.js";
import { ledgerHash, ledgerRootKey, writerStateKey } from "./records/bookkeeper-wal-keys.js";
import {
  sameOwner,
  type BookKeeperLedgerRoot,
  type BookKeeperWriterState,
  type LedgerOwner,
} from "./records/bookkeeper-wal-records.js";
import { ledgerRootCodec } from "./records/ledger-root-codec.js";
import { VersionedRecords, type Versioned } from "./records/versioned-records.js";
import { writerStateCodec } from "./records/writer-state-codec.js";

/** Rounds of "reload, decide, CAS" before a stream whose writer state keeps changing fails. */
const MAX_ROUNDS = 8;
const encoder = new TextEncoder();

/** The ledger a stream's writes go to, held by this process. */
export interface ActiveLedger {
  readonly streamId: string;
  readonly ledgerId: bigint;
  readonly handle: LedgerHandle;
  readonly owner: LedgerOwner;
  readonly createdAtMillis: number;
  /** The root as last written by this process (its revision is what protections compare). */
  root: Versioned<BookKeeperLedgerRoot>;
  /** Entries and framed bytes handed to the handle so far. */
  entries: number;
  bytes: number;
  /** False once a write failed or was fenced: the ledger is sealed before the next write, never reused. */
  healthy: boolean;
}

/** Per-stream state of this process. */
export interface StreamSlot {
  readonly streamId: string;
  active: ActiveLedger | undefined;
  /** Serializes writes and lifecycle work of the stream. */
  tail: Promise<void>;
}

/** Ledger selection, sealing and allocation for the streams of one process. */
export class StreamLedgers {
  readonly #context: BookKeeperWalContext;
  readonly #states: VersionedRecords<BookKeeperWriterState>;
  readonly #roots: VersionedRecords<BookKeeperLedgerRoot>;

  constructor(context: BookKeeperWalContext) {
    this.#context = context;
    this.#states = new VersionedRecords(context.metadata, writerStateCodec);
    this.#roots = new VersionedRecords(context.metadata, ledgerRootCodec);
  }

  rootKey(ledgerId: bigint): string {
    return ledgerRootKey(this.#context.cluster, ledgerHash(this.#context.clusterAlias, ledgerId));
  }

  /** The stored root of `ledgerId`, or undefined. */
  loadRoot(ledgerId: bigint, signal?: AbortSignal): Promise<Versioned<BookKeeperLedgerRoot> | undefined> {
    return this.#roots.load(this.rootKey(ledgerId), signal);
  }

  /** The stored writer state of `streamId`, or undefined. */
  loadState(streamId: string, signal?: AbortSignal): Promise<Versioned<BookKeeperWriterState> | undefined> {
    return this.#states.load(writerStateKey(this.#context.cluster, streamId), signal);
  }

  /**
   * The ledger `owner` writes `entries` entries of `bytes` framed bytes of `slot`'s stream to. Seals and allocates
   * as needed (see the module comment). Must run inside the slot's serialization.
   * @throws FENCED_APPEND when another owner holds the stream; BookKeeper and metadata failures as they come.
   */
  async ledgerFor(
    slot: StreamSlot,
    owner: LedgerOwner,
    entries: number,
    bytes: number,
    signal?: AbortSignal,
  ): Promise<ActiveLedger> {
    const active = slot.active;
    if (active !== undefined && active.healthy && sameOwner(active.owner, owner)) {
      if (!this.#needsRollover(active, entries, bytes)) return active;
      this.#context.stats.rollovers += 1;
    }
    return this.#reconcile(slot, owner, signal);
  }

  /**
   * Seals the ledger this process writes for `slot` (if any) and leaves the writer state IDLE. Used by `close()`;
   * a state that another owner took meanwhile is left alone.
   */
  async release(slot: StreamSlot, signal?: AbortSignal): Promise<void> {
    const active = slot.active;
    if (active === undefined) return;
    slot.active = undefined;
    const key = writerStateKey(this.#context.cluster, slot.streamId);
    const current = await this.#states.load(key, signal);
    if (
      current === undefined ||
      !sameOwner(current.value.owner, active.owner) ||
      current.value.ledger?.ledgerId !== active.ledgerId
    )
      return;
    const sealing = await this.#states.replace(
      key,
      current.revision,
      this.#next(current.value, { lifecycle: "SEALING" }),
      signal,
    );
    if (!sealing.ok) return;
    await this.#seal(active.ledgerId, active, signal);
    await this.#states.replace(
      key,
      sealing.stored.revision,
      this.#next(sealing.stored.value, { lifecycle: "IDLE", ledger: undefined }),
      signal,
    );
  }

  #needsRollover(active: ActiveLedger, entries: number, bytes: number): boolean {
    if (active.entries === 0) return false;
    const { maxEntries, maxBytes, maxAgeMs } = this.#context.rollover;
    return (
      active.entries + entries > maxEntries ||
      active.bytes + bytes > maxBytes ||
      this.#context.clock() - active.createdAtMillis >= maxAgeMs
    );
  }

  async #reconcile(slot: StreamSlot, owner: LedgerOwner, signal?: AbortSignal): Promise<ActiveLedger> {
    const key = writerStateKey(this.#context.cluster, slot.streamId);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let current = await this.#states.load(key, signal);
      const takeover = current !== undefined && !sameOwner(current.value.owner, owner);
      if (
        current !== undefined &&
        takeover &&
        !(await this.#mayTakeOver(slot.streamId, current.value, owner, signal))
      ) {
        throw new NereusError(
          ErrorCode.FENCED_APPEND,
          `stream ${slot.streamId}: its BookKeeper ledgers belong to writer ${current.value.owner.writerId} epoch ${String(current.value.owner.writerEpoch)}; ` +
            `writer ${owner.writerId} epoch ${String(owner.writerEpoch)} is stale`,
          { retryable: false, details: { streamId: slot.streamId, owner: current.value.owner, requester: owner } },
        );
      }
      let claimedOwnership = false;
      const named = current?.value.ledger;
      if (current !== undefined && named !== undefined) {
        if (current.value.lifecycle !== "SEALING" || takeover) {
          const sealing = await this.#states.replace(
            key,
            current.revision,
            this.#next(current.value, { lifecycle: "SEALING", owner }),
            signal,
          );
          if (!sealing.ok) continue;
          current = sealing.stored;
          claimedOwnership = takeover;
          if (takeover) this.#context.stats.takeovers += 1;
        }
        const own = slot.active?.ledgerId === named.ledgerId ? slot.active : undefined;
        slot.active = undefined;
        await this.#seal(named.ledgerId, own, signal);
      }
      // Allocate the next ledger.
      const segmentSequence = current?.value.nextSegmentSequence ?? 0;
      const allocationId = randomBytes(12).toString("hex");
      const allocating: BookKeeperWriterState = {
        streamId: slot.streamId,
        stateEpoch: current === undefined ? 0 : current.value.stateEpoch + 1,
        lifecycle: "ALLOCATING",
        owner,
        nextSegmentSequence: segmentSequence + 1,
        ledger: undefined,
        allocationId,
        updatedAtMillis: this.#context.clock(),
      };
      const claimed = await this.#states.replace(key, current?.revision ?? 0, allocating, signal);
      if (!claimed.ok) continue;
      if (takeover && !claimedOwnership) this.#context.stats.takeovers += 1;
      const created = await this.#create(slot.streamId, segmentSequence, allocationId, owner, signal);
      if (created === undefined) continue;
      const activated = await this.#states.replace(
        key,
        claimed.stored.revision,
        this.#next(allocating, {
          lifecycle: "ACTIVE",
          allocationId: "",
          ledger: { ledgerId: created.ledgerId, segmentSequence, createdAtMillis: created.createdAtMillis },
        }),
        signal,
      );
      if (!activated.ok) {
        // Someone took the stream while we allocated: our new ledger is sealed empty and never used.
        await this.#seal(created.ledgerId, created, signal);
        continue;
      }
      slot.active = created;
      return created;
    }
    throw new NereusError(
      ErrorCode.METADATA_CONDITION_FAILED,
      `stream ${slot.streamId}: BookKeeper writer state kept changing; gave up after ${String(MAX_ROUNDS)} rounds`,
    );
  }

  #next(state: BookKeeperWriterState, change: Partial<BookKeeperWriterState>): BookKeeperWriterState {
    return { ...state, ...change, stateEpoch: state.stateEpoch + 1, updatedAtMillis: this.#context.clock() };
  }

  /**
   * Whether `requester` may take the stream's ledgers from the state's holder. This decides liveness only: safety
   * comes from the head CAS and the root compare. A higher epoch always may. Otherwise the stream head decides:
   * when it names the holder, the holder committed its session and the requester is stale; when the requester is
   * behind the head's session, it is stale too. What remains is a holder whose takeover never committed (two
   * writers can plan the same next epoch, and a writer that lost its session re-plans one): the requester waits
   * while that claim is younger than `takeoverGraceMs` (the holder is probably about to commit) and takes the
   * ledgers back after it (the holder died before its head CAS).
   */
  async #mayTakeOver(
    streamId: string,
    holder: BookKeeperWriterState,
    requester: LedgerOwner,
    signal?: AbortSignal,
  ): Promise<boolean> {
    if (requester.writerEpoch > holder.owner.writerEpoch) return true;
    const stored = await this.#context.metadata.get(
      this.#context.keyspace.headKey(streamId),
      signal === undefined ? {} : { signal },
    );
    if (stored === undefined) return false;
    const session = this.#context.keyspace.decodeHead(stored).head.session;
    if (
      session !== undefined &&
      session.writerId === holder.owner.writerId &&
      session.epoch === holder.owner.writerEpoch
    )
      return false;
    if (session !== undefined && requester.writerEpoch < session.epoch) return false;
    return this.#context.clock() - holder.updatedAtMillis >= this.#context.takeoverGraceMs;
  }

  /** Creates a ledger and its root; undefined when its id already has a root (the id is then never used). */
  async #create(
    streamId: string,
    segmentSequence: number,
    allocationId: string,
    owner: LedgerOwner,
    signal?: AbortSignal,
  ): Promise<ActiveLedger | undefined> {
    const context = this.#context;
    const { ensembleSize, writeQuorumSize, ackQuorumSize } = context.quorums;
    context.stats.ledgersCreated += 1;
    const handle = await context.client.createLedger({
      ensembleSize,
      writeQuorumSize,
      ackQuorumSize,
      password: context.password,
      digestType: context.digestType,
      customMetadata: {
        "nereus.cluster": encoder.encode(context.cluster),
        "nereus.stream": encoder.encode(streamId),
        "nereus.segment": encoder.encode(String(segmentSequence)),
        "nereus.allocation": encoder.encode(allocationId),
        "nereus.writer": encoder.encode(`${owner.writerId}@${String(owner.writerEpoch)}`),
      },
      ...(signal === undefined ? {} : { signal }),
    });
    const createdAtMillis = context.clock();
    const root: BookKeeperLedgerRoot = {
      clusterAlias: context.clusterAlias,
      ledgerId: handle.ledgerId,
      ledgerHash: ledgerHash(context.clusterAlias, handle.ledgerId),
      streamId,
      segmentSequence,
      allocationId,
      owner,
      ensembleSize,
      writeQuorumSize,
      ackQuorumSize,
      digestType: context.digestType,
      lifecycle: "ACTIVE",
      lifecycleEpoch: 0,
      createdAtMillis,
      sealedEntryCount: 0,
      sealedLength: 0,
    };
    const stored = await this.#roots.replace(this.rootKey(handle.ledgerId), 0, root, signal);
    if (!stored.ok) {
      // The id was used before (a reformatted BookKeeper cluster): never write to it.
      await handle.close().catch(() => undefined);
      return undefined;
    }
    return {
      streamId,
      ledgerId: handle.ledgerId,
      handle,
      owner,
      createdAtMillis,
      root: stored.stored,
      entries: 0,
      bytes: 0,
      healthy: true,
    };
  }

  /**
   * Seals `ledgerId`: root ACTIVE → SEALING, then close `own` (a healthy handle of this process) or recovery-open
   * the ledger (fencing whoever writes it), then root → SEALED with the final end. Idempotent and safe to run
   * concurrently with another sealer of the same ledger.
   */
  async #seal(ledgerId: bigint, own: ActiveLedger | undefined, signal?: AbortSignal): Promise<void> {
    const key = this.rootKey(ledgerId);
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let root = await this.#roots.load(key, signal);
      if (root === undefined) {
        throw new NereusError(
          ErrorCode.METADATA_INVARIANT_VIOLATION,
          `ledger ${String(ledgerId)} is named by a writer state but has no root`,
          { retryable: false },
        );
      }
      if (root.value.lifecycle !== "ACTIVE" && root.value.lifecycle !== "SEALING") return;
      if (root.value.lifecycle === "ACTIVE") {
        const sealing = await this.#roots.replace(
          key,
          root.revision,
          { ...root.value, lifecycle: "SEALING", lifecycleEpoch: root.value.lifecycleEpoch + 1 },
          signal,
        );
        if (!sealing.ok) continue;
        root = sealing.stored;
        if (own !== undefined) own.root = root;
      }
      const end = await this.#physicalSeal(ledgerId, own?.healthy === true ? own : undefined, signal);
      const next: BookKeeperLedgerRoot =
        end === undefined
          ? { ...root.value, lifecycle: "QUARANTINED", lifecycleEpoch: root.value.lifecycleEpoch + 1 }
          : {
              ...root.value,
              lifecycle: "SEALED",
              lifecycleEpoch: root.value.lifecycleEpoch + 1,
              sealedEntryCount: end.lastEntryId + 1,
              sealedLength: end.length,
            };
      const sealed = await this.#roots.replace(key, root.revision, next, signal);
      if (!sealed.ok) continue;
      if (own !== undefined) {
        own.root = sealed.stored;
        own.healthy = false;
      }
      this.#context.stats.ledgersSealed += 1;
      return;
    }
    throw new NereusError(
      ErrorCode.METADATA_CONDITION_FAILED,
      `ledger ${String(ledgerId)}: root kept changing while sealing`,
    );
  }

  /** Closes the ledger (own healthy handle) or recovers it; undefined when its BookKeeper metadata is gone. */
  async #physicalSeal(
    ledgerId: bigint,
    own: ActiveLedger | undefined,
    signal?: AbortSignal,
  ): Promise<{ lastEntryId: number; length: number } | undefined> {
    if (own !== undefined) {
      own.healthy = false;
      try {
        await own.handle.close(signal === undefined ? {} : { signal });
        return { lastEntryId: own.handle.lastAddConfirmed, length: own.handle.length };
      } catch (error) {
        if (signal?.aborted === true) throw error;
        // Fall through: recover it like anyone else's ledger.
      }
    }
    this.#context.stats.recoveryOpens += 1;
    try {
      const recovered = await this.#context.client.openLedger(ledgerId, {
        recovery: true,
        password: this.#context.password,
        ...(signal === undefined ? {} : { signal }),
      });
      return { lastEntryId: recovered.lastAddConfirmed, length: recovered.length };
    } catch (error) {
      if (NereusError.hasCode(error, ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND)) return undefined;
      throw error;
    }
  }
}
