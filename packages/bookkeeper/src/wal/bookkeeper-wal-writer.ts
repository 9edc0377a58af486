// WalWriter of the BookKeeper primary WAL (docs/architecture.md §4, step "persist"): one Nereus entry = one BookKeeper entry
// (framed with its record count, entry-frame.ts). `prepare` freezes the framed bytes (no I/O); `persist` adds every
// entry of the prepared append to the stream's current ledger — all in flight at once, in order, so they get
// contiguous entry ids — and returns only after an ack quorum confirmed every one of them; the target names that
// exact range. `protect` returns what the head transaction must carry: a compare on the ledger root's revision
// (still ACTIVE: no new owner has started sealing it) and the range's REACHABLE_APPEND protection record;
// `classifyProtectionConflict` turns a head transaction lost on that root compare (root no longer ACTIVE: sealed by a
// newer owner) into FENCED_APPEND instead of a retryable condition failure.
// A write that fails leaves the ledger unhealthy: it is sealed before the stream's next write and never written
// again, so entries of a failed attempt can never be followed by committed ones at ids a retry would reuse.
// Owns nothing it was given (client, metadata); holds write handles of the streams it writes until `close()`.
import {
  ErrorCode,
  NereusError,
  WAL_SPI_VERSION,
  crc32c,
  crc32cCombine,
  type BookKeeperEntryRangeTarget,
  type KeyValue,
  type MetadataStore,
  type PersistedWrite,
  type PreparedWrite,
  type ProtectionConflictVerdict,
  type TargetProtection,
  type WalIoOptions,
  type WalWriteRequest,
  type WalWriter,
} from "@nereus/core";
import { raceAbort } from "@nereus/core/internal";
import { DIGEST_LENGTH } from "../digest/digest-type.js";
import { ENTRY_HEADER_LENGTH } from "../digest/entry-codec.js";
import { abortError } from "../errors/map-bookie-error.js";
import { DEFAULT_MAX_FRAME_SIZE } from "../protocol/frame-decoder.js";
import type { BookKeeperWalContext } from "./bookkeeper-wal-context.js";
import { ENTRY_FRAME_OVERHEAD, encodeEntryFrame } from "./entry-frame.js";
import { ledgerHash, rangeProtectionKey } from "./records/bookkeeper-wal-keys.js";
import { BookKeeperWalWireIds, type BookKeeperLedgerRoot } from "./records/bookkeeper-wal-records.js";
import { ledgerRootCodec } from "./records/ledger-root-codec.js";
import { rangeProtectionCodec } from "./records/range-protection-codec.js";
import { VersionedRecords, type Versioned } from "./records/versioned-records.js";
import { StreamLedgers, type StreamSlot } from "./stream-ledgers.js";

/** Room for the v3 request envelope around an entry (as the ledger handle reserves). */
const REQUEST_OVERHEAD = 128;

/** The frozen bytes of one prepared write. */
interface FrozenWrite {
  readonly frames: readonly Uint8Array[];
  readonly framedBytes: number;
}

/** The largest Nereus payload one BookKeeper entry carries with `digestLength` bytes of digest. */
function maxEntryPayload(digestLength: number): number {
  return DEFAULT_MAX_FRAME_SIZE - ENTRY_HEADER_LENGTH - digestLength - REQUEST_OVERHEAD - ENTRY_FRAME_OVERHEAD;
}

/**
 * BookKeeper WAL writer.
 *
 * Invariants: a persisted target names exactly the entries of its prepared write, at contiguous ids of one ledger,
 * each confirmed by an ack quorum; persisting a prepared write again after it succeeded returns the same target
 * (a retry after a failure writes a fresh range); a stream's ledgers are written only by the owner (writer id +
 * session epoch) its writer state names, and a new owner seals the previous owner's ledger by recovery-open
 * before writing — so a stale writer's later adds fail FENCED_APPEND at the bookies, and a range it persisted
 * before the fence cannot be protected once the root left ACTIVE.
 */
export class BookKeeperWalWriter implements WalWriter {
  readonly spiVersion = WAL_SPI_VERSION;
  readonly walKind = "BOOKKEEPER" as const;
  readonly #context: BookKeeperWalContext;
  readonly #ledgers: StreamLedgers;
  readonly #frozen = new WeakMap<PreparedWrite, FrozenWrite>();
  readonly #writes = new WeakMap<PreparedWrite, Promise<PersistedWrite>>();
  readonly #slots = new Map<string, StreamSlot>();
  readonly #maxPayload: number;
  #closing: Promise<void> | undefined;

  constructor(context: BookKeeperWalContext) {
    this.#context = context;
    this.#ledgers = new StreamLedgers(context);
    this.#maxPayload = maxEntryPayload(DIGEST_LENGTH[context.digestType]);
  }

  /** The ledger lifecycle (writer states, roots) this writer uses. */
  get ledgers(): StreamLedgers {
    return this.#ledgers;
  }

  /** The ledger id the stream's next write goes to in this process, if it holds a healthy write handle. */
  activeLedgerId(streamId: string): bigint | undefined {
    const active = this.#slots.get(streamId)?.active;
    return active?.healthy === true ? active.ledgerId : undefined;
  }

  prepare(request: WalWriteRequest): PreparedWrite {
    if (request.entries.length === 0)
      throw new NereusError(ErrorCode.INVALID_ARGUMENT, "a BookKeeper WAL write needs at least one entry", {
        retryable: false,
      });
    const frames: Uint8Array[] = [];
    const entries = [];
    let recordCount = 0;
    let logicalBytes = 0;
    let framedBytes = 0;
    let payloadChecksum = 0;
    for (const [index, entry] of request.entries.entries()) {
      if (entry.payload.length > this.#maxPayload) {
        throw new NereusError(
          ErrorCode.INVALID_ARGUMENT,
          `entry ${String(index)} of ${String(entry.payload.length)} bytes exceeds the BookKeeper entry limit of ${String(this.#maxPayload)} bytes`,
          {
            retryable: false,
            details: { entryIndex: index, payloadLength: entry.payload.length, maxPayload: this.#maxPayload },
          },
        );
      }
      const frame = encodeEntryFrame(entry.recordCount, entry.payload);
      frames.push(frame);
      const payload = frame.subarray(ENTRY_FRAME_OVERHEAD);
      entries.push({ recordCount: entry.recordCount, payload });
      recordCount += entry.recordCount;
      logicalBytes += payload.length;
      framedBytes += frame.length;
      payloadChecksum =
        entry.payloadCrc32c === undefined
          ? crc32c(payload, payloadChecksum)
          : crc32cCombine(payloadChecksum, entry.payloadCrc32c, payload.length);
    }
    const prepared: PreparedWrite = {
      request: { ...request, entries },
      physicalAttemptKey: `bookkeeper/${this.#context.clusterAlias}/${request.streamId}/${request.attemptId}`,
      entryCount: frames.length,
      recordCount,
      logicalBytes,
      payloadChecksum,
    };
    this.#frozen.set(prepared, { frames, framedBytes });
    return prepared;
  }

  persist(prepared: PreparedWrite, options: WalIoOptions = {}): Promise<PersistedWrite> {
    const frozen = this.#frozen.get(prepared);
    if (frozen === undefined)
      return Promise.reject(
        new NereusError(ErrorCode.INVALID_ARGUMENT, "persist needs a write prepared by this writer", {
          retryable: false,
        }),
      );
    const signal = options.signal;
    if (signal?.aborted === true)
      return Promise.reject(abortError(signal, `BookKeeper write of ${prepared.physicalAttemptKey}`));
    let running = this.#writes.get(prepared);
    if (running === undefined) {
      if (this.#closing !== undefined) return Promise.reject(closedError());
      const started = this.#serialize(this.#slot(prepared.request.streamId), () => this.#write(prepared, frozen));
      running = started;
      this.#writes.set(prepared, started);
      // A failed write may be retried with the same prepared write; it then writes a fresh range.
      started.catch(() => {
        if (this.#writes.get(prepared) === started) this.#writes.delete(prepared);
      });
    }
    return raceAbort(running, signal, () =>
      abortError(signal as AbortSignal, `BookKeeper write of ${prepared.physicalAttemptKey}`),
    );
  }

  async protect(
    persisted: PersistedWrite,
    commitId: string,
    metadata: MetadataStore,
    options: WalIoOptions = {},
  ): Promise<TargetProtection> {
    const target = persisted.readTarget;
    if (target.type !== "BOOKKEEPER_ENTRY_RANGE" || target.clusterAlias !== this.#context.clusterAlias) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `protect needs a BOOKKEEPER_ENTRY_RANGE target of cluster alias ${this.#context.clusterAlias}`,
        { retryable: false },
      );
    }
    const streamId = persisted.prepared.request.streamId;
    const ledgerId = BigInt(target.ledgerId);
    const root = await this.#rootOf(streamId, ledgerId, metadata, options.signal);
    if (root.value.lifecycle !== "ACTIVE") {
      throw new NereusError(
        ErrorCode.FENCED_APPEND,
        `stream ${streamId}: ledger ${target.ledgerId} is ${root.value.lifecycle} (a new owner sealed it); its range [${String(target.firstEntryId)}, +${String(target.entryCount)}) can never commit`,
        { retryable: false, details: { streamId, ledgerId: target.ledgerId, lifecycle: root.value.lifecycle } },
      );
    }
    const hash = ledgerHash(this.#context.clusterAlias, ledgerId);
    const typeId = BookKeeperWalWireIds.rangeProtectionType.idOf("REACHABLE_APPEND") ?? 0;
    const protectionKey = rangeProtectionKey(this.#context.cluster, hash, target.firstEntryId, typeId);
    const value = rangeProtectionCodec.encode({
      ledgerHash: hash,
      clusterAlias: this.#context.clusterAlias,
      ledgerId,
      firstEntryId: target.firstEntryId,
      entryCount: target.entryCount,
      rangeChecksum: target.rangeChecksum,
      type: "REACHABLE_APPEND",
      streamId,
      ownerKey: this.#context.keyspace.intentKey(streamId, commitId),
      rootLifecycleEpoch: root.value.lifecycleEpoch,
    });
    return {
      compares: [
        { key: this.#ledgers.rootKey(ledgerId), modRevision: root.revision },
        { key: protectionKey, modRevision: 0 },
      ],
      writes: [{ type: "put", key: protectionKey, value }],
    };
  }

  /**
   * A head transaction lost on this writer's protection compare while the head held: the range's ledger root (read
   * back by that transaction) is gone or no longer ACTIVE — a newer owner sealed the ledger (recovery-open) before its
   * own head CAS — so the range can never commit: FENCED. A root still ACTIVE (or unreadable) is left to the default.
   */
  classifyProtectionConflict(
    persisted: PersistedWrite,
    current: ReadonlyMap<string, KeyValue>,
  ): ProtectionConflictVerdict | undefined {
    const target = persisted.readTarget;
    if (target.type !== "BOOKKEEPER_ENTRY_RANGE" || target.clusterAlias !== this.#context.clusterAlias)
      return undefined;
    const key = this.#ledgers.rootKey(BigInt(target.ledgerId));
    const stored = current.get(key);
    if (stored === undefined) return "FENCED";
    let lifecycle: string;
    try {
      lifecycle = ledgerRootCodec.decode(stored.value, key).lifecycle;
    } catch {
      return undefined;
    }
    return lifecycle === "ACTIVE" ? undefined : "FENCED";
  }

  /**
   * Stops accepting writes, waits for the ones in flight, then seals every ledger this process writes (closing its
   * handle, root SEALED, writer state IDLE) so a later owner need not recover them. Sealing is best effort: a
   * failure leaves the ledger to the next owner's recovery. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      for (const slot of this.#slots.values()) {
        await this.#serialize(slot, async () => {
          await this.#ledgers.release(slot).catch(() => undefined);
        }).catch(() => undefined);
      }
    })();
    return this.#closing;
  }

  async #write(prepared: PreparedWrite, frozen: FrozenWrite): Promise<PersistedWrite> {
    if (this.#closing !== undefined) throw closedError();
    const { request } = prepared;
    const stats = this.#context.stats;
    stats.persists += 1;
    const slot = this.#slot(request.streamId);
    const ledger = await this.#ledgers.ledgerFor(
      slot,
      { writerId: request.writerId, writerEpoch: request.writerEpoch },
      frozen.frames.length,
      frozen.framedBytes,
    );
    const adds = frozen.frames.map((frame) => ledger.handle.addEntry(frame));
    ledger.entries += frozen.frames.length;
    ledger.bytes += frozen.framedBytes;
    stats.entriesAdded += frozen.frames.length;
    stats.bytesAdded += frozen.framedBytes;
    let ids: number[];
    try {
      ids = await Promise.all(adds);
    } catch (error) {
      ledger.healthy = false;
      stats.failedWrites += 1;
      await Promise.allSettled(adds);
      throw error;
    }
    const firstEntryId = ids[0] ?? -1;
    if (!ids.every((id, index) => id === firstEntryId + index)) {
      ledger.healthy = false;
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_WRITE_FAILED,
        `ledger ${String(ledger.ledgerId)} assigned non-contiguous entry ids ${ids.join(",")}`,
        { retryable: true },
      );
    }
    const readTarget: BookKeeperEntryRangeTarget = {
      type: "BOOKKEEPER_ENTRY_RANGE",
      version: 1,
      clusterAlias: this.#context.clusterAlias,
      ledgerId: String(ledger.ledgerId),
      firstEntryId,
      entryCount: ids.length,
      rangeChecksum: prepared.payloadChecksum,
    };
    return { prepared, readTarget };
  }

  async #rootOf(
    streamId: string,
    ledgerId: bigint,
    metadata: MetadataStore,
    signal?: AbortSignal,
  ): Promise<Versioned<BookKeeperLedgerRoot>> {
    const active = this.#slots.get(streamId)?.active;
    if (active?.ledgerId === ledgerId) return active.root;
    const stored = await new VersionedRecords(metadata, ledgerRootCodec).load(this.#ledgers.rootKey(ledgerId), signal);
    if (stored === undefined) {
      throw new NereusError(
        ErrorCode.METADATA_INVARIANT_VIOLATION,
        `ledger ${String(ledgerId)} of stream ${streamId} has no root`,
        { retryable: false },
      );
    }
    return stored;
  }

  #slot(streamId: string): StreamSlot {
    let slot = this.#slots.get(streamId);
    if (slot === undefined) {
      slot = { streamId, active: undefined, tail: Promise.resolve() };
      this.#slots.set(streamId, slot);
    }
    return slot;
  }

  /** Runs `body` after every earlier body of the slot settled. */
  #serialize<T>(slot: StreamSlot, body: () => Promise<T>): Promise<T> {
    const result = slot.tail.then(body);
    slot.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

function closedError(): NereusError {
  return new NereusError(ErrorCode.STORAGE_CLOSED, "the BookKeeper WAL writer is closed", { retryable: false });
}
