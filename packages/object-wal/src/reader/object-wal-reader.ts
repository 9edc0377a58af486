// The Object WAL reader (WalReader for OBJECT_SLICE targets): one ranged GET of exactly the slice, then the strict
// NRS1 slice decoder verifies its CRC32C against the target's checksum and the stored one, its structure and its
// entry count. Serves WAL slices (MULTI_STREAM_WAL_OBJECT) and per-stream generation objects
// (STREAM_GENERATION_OBJECT), which share the format. Corruption fails with OBJECT_CHECKSUM_MISMATCH (or
// PRIMARY_WAL_CHECKSUM_MISMATCH for a well-formed slice that disagrees with its target), never with wrong data.
// Buffers: returned payloads are views into one fresh buffer per call, owned by the caller.
import {
  ErrorCode,
  NereusError,
  WAL_SPI_VERSION,
  type ObjectStore,
  type ReadTarget,
  type ReadTargetType,
  type StoredEntry,
  type WalIoOptions,
  type WalReader,
} from "@nereus/core";
import { decodeSliceBytes } from "../format/decode-slice.js";

/** Object types whose slices are NRS1 slices. */
const NRS1_OBJECT_TYPES: ReadonlySet<string> = new Set(["MULTI_STREAM_WAL_OBJECT", "STREAM_GENERATION_OBJECT"]);

export interface ObjectWalReaderOptions {
  readonly objectStore: ObjectStore;
}

/** Counters of one reader. */
export class ObjectWalReaderStats {
  /** Slices read (ranged GETs). */
  reads = 0;
  /** Bytes downloaded. */
  bytes = 0;
}

/** Reads NRS1 slices named by OBJECT_SLICE targets. Stateless apart from its counters. */
export class ObjectWalReader implements WalReader {
  readonly spiVersion = WAL_SPI_VERSION;
  readonly targetTypes: readonly ReadTargetType[] = ["OBJECT_SLICE"];
  readonly stats = new ObjectWalReaderStats();
  readonly #store: ObjectStore;

  constructor(options: ObjectWalReaderOptions) {
    this.#store = options.objectStore;
  }

  async readEntries(target: ReadTarget, options: WalIoOptions = {}): Promise<readonly StoredEntry[]> {
    if (target.type !== "OBJECT_SLICE" || !NRS1_OBJECT_TYPES.has(target.objectType)) {
      const what = target.type === "OBJECT_SLICE" ? `${target.objectType} slices` : `${target.type} targets`;
      throw new NereusError(ErrorCode.UNSUPPORTED_READ_TARGET, `the Object WAL reader cannot read ${what}`, { retryable: false });
    }
    this.stats.reads += 1;
    const bytes = await this.#store.get(target.objectKey, { offset: target.sliceOffset, length: target.sliceLength }, { signal: options.signal });
    this.stats.bytes += bytes.byteLength;
    const slice = decodeSliceBytes(bytes, {
      offset: target.sliceOffset,
      length: target.sliceLength,
      checksum: target.sliceChecksum,
      entryCount: target.entryCount,
    });
    return slice.entries;
  }
}
