// Reference in-memory primary-WAL provider (writer + reader) for tests and benchmarks. walKind "OBJECT" writes
// one immutable MEMORY_OBJECT per attempt and returns OBJECT_SLICE targets; walKind "BOOKKEEPER" appends exact
// entry ranges to per-stream in-memory ledgers and returns BOOKKEEPER_ENTRY_RANGE targets. Counts physical I/O
// (`stats`) and injects faults (`faults`, `corrupt`). Not durable: state lives as long as the object; share one
// instance between "restarted" stores to model a durable WAL.
// Buffers: `prepare` copies the caller's payloads; reads return fresh copies.
import { ByteReader } from "../bytes/byte-reader.js";
import { ByteWriter } from "../bytes/byte-writer.js";
import { crc32c } from "../bytes/crc32c.js";
import { sha256Hex } from "../bytes/sha256.js";
import type { ReadTarget, ReadTargetType } from "../domain/read-target.js";
import type { PrimaryWalKind } from "../domain/storage-profile.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import {
  WAL_SPI_VERSION,
  type PersistedWrite,
  type PreparedWrite,
  type StoredEntry,
  type TargetProtection,
  type WalIoOptions,
  type WalReader,
  type WalWriteRequest,
  type WalWriter,
} from "../spi/wal.js";
import { WalFaults, type WalFaultMode } from "./wal-faults.js";
import { WalProviderStats } from "./wal-provider-stats.js";

const MAGIC = new TextEncoder().encode("NMW1");
const encoder = new TextEncoder();

export interface MemoryWalProviderOptions {
  /** Which primary WAL family to imitate (default "OBJECT"). */
  readonly walKind?: PrimaryWalKind;
  /**
   * Metadata prefix of the protection records `protect` asks the head transaction to write (one per commit id);
   * default `/nereus-memory-wal/protections`.
   */
  readonly protectionPrefix?: string;
}

/** A prepared attempt with its frozen bytes. */
interface MemoryPreparedWrite extends PreparedWrite {
  readonly frozen: readonly Uint8Array[];
}

/**
 * Writer and reader in one object. Invariants: `prepare` does no I/O and freezes copies; `persist` of the same
 * prepared write twice yields the same target and bytes; `readEntries` verifies the target checksum and returns
 * exactly what was persisted or throws PRIMARY_WAL_CHECKSUM_MISMATCH / PRIMARY_WAL_TARGET_NOT_FOUND.
 */
export class MemoryWalProvider implements WalWriter, WalReader {
  readonly spiVersion = WAL_SPI_VERSION;
  readonly walKind: PrimaryWalKind;
  readonly targetTypes: readonly ReadTargetType[];
  readonly stats = new WalProviderStats();
  readonly faults = new WalFaults();
  readonly #protectionPrefix: string;
  readonly #objects = new Map<string, Uint8Array>();
  /** Ledger id → encoded entries. */
  readonly #ledgers = new Map<string, Uint8Array[]>();
  /** Stream id → its current ledger id. */
  readonly #streamLedgers = new Map<string, string>();
  /** Physical attempt key → target (idempotent persist). */
  readonly #persisted = new Map<string, ReadTarget>();
  #nextLedgerId = 1;

  constructor(options: MemoryWalProviderOptions = {}) {
    this.walKind = options.walKind ?? "OBJECT";
    this.targetTypes = [this.walKind === "OBJECT" ? "OBJECT_SLICE" : "BOOKKEEPER_ENTRY_RANGE"];
    this.#protectionPrefix = options.protectionPrefix ?? "/nereus-memory-wal/protections";
  }

  prepare(request: WalWriteRequest): PreparedWrite {
    this.stats.prepares += 1;
    if (request.payloadsHandedOver === true) this.stats.handedOverPrepares += 1;
    const frozen = request.entries.map((entry) => entry.payload.slice());
    let checksum = 0;
    let logicalBytes = 0;
    let recordCount = 0;
    for (const [index, payload] of frozen.entries()) {
      checksum = crc32c(payload, checksum);
      logicalBytes += payload.byteLength;
      recordCount += request.entries[index]?.recordCount ?? 0;
    }
    const frozenRequest: WalWriteRequest = {
      ...request,
      entries: request.entries.map((entry, index) => ({
        recordCount: entry.recordCount,
        payload: frozen[index] as Uint8Array,
      })),
    };
    const prepared: MemoryPreparedWrite = {
      request: frozenRequest,
      physicalAttemptKey: `mem-wal/${sha256Hex(encoder.encode(`${request.streamId}\0${request.attemptId}`))}`,
      entryCount: frozen.length,
      recordCount,
      logicalBytes,
      payloadChecksum: checksum,
      frozen,
    };
    return prepared;
  }

  async persist(prepared: PreparedWrite, options: WalIoOptions = {}): Promise<PersistedWrite> {
    this.stats.persists += 1;
    const streamId = prepared.request.streamId;
    throwIfAborted(options.signal, "persist");
    const fault = this.faults.take("persist", streamId);
    await this.#beforeIo(fault, options.signal, "persist");
    const memoryPrepared = asMemoryPrepared(prepared);
    let target = this.#persisted.get(prepared.physicalAttemptKey);
    if (target === undefined) {
      target = this.walKind === "OBJECT" ? this.#putObject(memoryPrepared) : this.#addEntries(memoryPrepared);
      this.#persisted.set(prepared.physicalAttemptKey, target);
    }
    if (fault === "corrupt-stored-bytes") this.corrupt(target);
    if (fault === "persist-then-lose-response") {
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_WRITE_FAILED,
        "injected fault: persist applied but its response was lost",
        {
          details: { injected: true },
        },
      );
    }
    return { prepared, readTarget: target };
  }

  async protect(
    persisted: PersistedWrite,
    commitId: string,
    _metadata: MetadataStore,
    options: WalIoOptions = {},
  ): Promise<TargetProtection> {
    this.stats.protects += 1;
    throwIfAborted(options.signal, "protect");
    await this.#beforeIo(this.faults.take("protect", persisted.prepared.request.streamId), options.signal, "protect");
    const key = `${this.#protectionPrefix}/${sha256Hex(encoder.encode(persisted.prepared.physicalAttemptKey))}/${commitId}`;
    return { compares: [], writes: [{ type: "put", key, value: encoder.encode(commitId) }] };
  }

  async readEntries(target: ReadTarget, options: WalIoOptions = {}): Promise<readonly StoredEntry[]> {
    this.stats.reads += 1;
    throwIfAborted(options.signal, "read");
    if (!this.targetTypes.includes(target.type)) {
      throw new NereusError(
        ErrorCode.UNSUPPORTED_READ_TARGET,
        `this ${this.walKind} provider cannot read ${target.type} targets`,
        {
          retryable: false,
        },
      );
    }
    await this.#beforeIo(this.faults.take("read", undefined), options.signal, "read");
    return target.type === "OBJECT_SLICE" ? this.#readObject(target) : this.#readRange(target);
  }

  /** Flips one stored byte of `target` (the next read of it must fail its checksum). */
  corrupt(target: ReadTarget): void {
    const bytes =
      target.type === "OBJECT_SLICE"
        ? this.#objects.get(target.objectKey)
        : this.#ledgers.get(target.ledgerId)?.[target.firstEntryId];
    if (bytes === undefined || bytes.byteLength === 0) throw new TypeError("no stored bytes for that target");
    const last = bytes.byteLength - 1;
    bytes[last] = (bytes[last] ?? 0) ^ 0xff;
  }

  /** Number of physical targets persisted so far (objects or entry ranges). */
  get targetCount(): number {
    return this.#persisted.size;
  }

  async #beforeIo(fault: WalFaultMode | undefined, signal: AbortSignal | undefined, op: string): Promise<void> {
    if (fault === "fail-before-persist") {
      throw new NereusError(ErrorCode.PRIMARY_WAL_WRITE_FAILED, `injected fault: ${op} failed before any I/O`, {
        details: { injected: true },
      });
    }
    if (fault === "hang-until-aborted") await hangUntilAborted(signal, op);
  }

  #putObject(prepared: MemoryPreparedWrite): ReadTarget {
    const writer = new ByteWriter(64).writeBytes(MAGIC).writeU32(prepared.frozen.length);
    prepared.frozen.forEach((payload, index) => {
      writer.writeU32(prepared.request.entries[index]?.recordCount ?? 0).writeLengthPrefixedBytes(payload);
    });
    const bytes = writer.finish();
    const objectKey = prepared.physicalAttemptKey;
    this.#objects.set(objectKey, bytes);
    return {
      type: "OBJECT_SLICE",
      version: 1,
      objectKey,
      objectType: "MEMORY_OBJECT",
      sliceOffset: 0,
      sliceLength: bytes.byteLength,
      sliceChecksum: crc32c(bytes),
      entryCount: prepared.frozen.length,
    };
  }

  #addEntries(prepared: MemoryPreparedWrite): ReadTarget {
    const streamId = prepared.request.streamId;
    let ledgerId = this.#streamLedgers.get(streamId);
    if (ledgerId === undefined) {
      ledgerId = String(this.#nextLedgerId++);
      this.#streamLedgers.set(streamId, ledgerId);
      this.#ledgers.set(ledgerId, []);
    }
    const ledger = this.#ledgers.get(ledgerId) as Uint8Array[];
    const firstEntryId = ledger.length;
    let checksum = 0;
    prepared.frozen.forEach((payload, index) => {
      const entry = new ByteWriter(payload.byteLength + 8)
        .writeU32(prepared.request.entries[index]?.recordCount ?? 0)
        .writeLengthPrefixedBytes(payload)
        .finish();
      checksum = crc32c(entry, checksum);
      ledger.push(entry);
    });
    return {
      type: "BOOKKEEPER_ENTRY_RANGE",
      version: 1,
      clusterAlias: "memory",
      ledgerId,
      firstEntryId,
      entryCount: prepared.frozen.length,
      rangeChecksum: checksum,
    };
  }

  #readObject(target: Extract<ReadTarget, { type: "OBJECT_SLICE" }>): StoredEntry[] {
    const object = this.#objects.get(target.objectKey);
    if (object === undefined) throw notFound(`object ${target.objectKey}`);
    const slice = object.subarray(target.sliceOffset, target.sliceOffset + target.sliceLength);
    if (slice.byteLength !== target.sliceLength || crc32c(slice) !== target.sliceChecksum)
      throw checksumMismatch(target.objectKey);
    const reader = new ByteReader(slice, "memory WAL object");
    reader.expectBytes(MAGIC, "magic");
    const count = reader.readU32("entryCount");
    const entries: StoredEntry[] = [];
    for (let index = 0; index < count; index++) {
      const recordCount = reader.readU32("recordCount");
      entries.push({ recordCount, payload: reader.readLengthPrefixedBytes("payload").slice() });
    }
    reader.expectEnd();
    if (entries.length !== target.entryCount) throw checksumMismatch(target.objectKey);
    return entries;
  }

  #readRange(target: Extract<ReadTarget, { type: "BOOKKEEPER_ENTRY_RANGE" }>): StoredEntry[] {
    const ledger = this.#ledgers.get(target.ledgerId);
    if (ledger === undefined || ledger.length < target.firstEntryId + target.entryCount) {
      throw notFound(
        `ledger ${target.ledgerId} entries [${String(target.firstEntryId)}, +${String(target.entryCount)})`,
      );
    }
    const raw = ledger.slice(target.firstEntryId, target.firstEntryId + target.entryCount);
    let checksum = 0;
    for (const entry of raw) checksum = crc32c(entry, checksum);
    if (checksum !== target.rangeChecksum) throw checksumMismatch(`ledger ${target.ledgerId}`);
    return raw.map((entry) => {
      const reader = new ByteReader(entry, "memory WAL entry");
      const recordCount = reader.readU32("recordCount");
      const payload = reader.readLengthPrefixedBytes("payload").slice();
      reader.expectEnd();
      return { recordCount, payload };
    });
  }
}

function asMemoryPrepared(prepared: PreparedWrite): MemoryPreparedWrite {
  if (!Array.isArray((prepared as Partial<MemoryPreparedWrite>).frozen)) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, "persist needs a write prepared by this provider", {
      retryable: false,
    });
  }
  return prepared as MemoryPreparedWrite;
}

function throwIfAborted(signal: AbortSignal | undefined, op: string): void {
  if (signal?.aborted === true) {
    throw new NereusError(ErrorCode.CANCELLED, `memory WAL ${op} cancelled`, {
      retryable: false,
      cause: signal.reason,
    });
  }
}

function hangUntilAborted(signal: AbortSignal | undefined, op: string): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    signal?.addEventListener(
      "abort",
      () => reject(new NereusError(ErrorCode.CANCELLED, `memory WAL ${op} cancelled while hung`, { retryable: false })),
      { once: true },
    );
  });
}

function notFound(what: string): NereusError {
  return new NereusError(ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND, `memory WAL: ${what} not found`, { retryable: false });
}

function checksumMismatch(what: string): NereusError {
  return new NereusError(ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH, `memory WAL: ${what} failed its checksum`, {
    retryable: false,
  });
}
