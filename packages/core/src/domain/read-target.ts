// ReadTarget: where the bytes of a committed range physically live. A tagged union with a version; unknown
// types or versions are rejected by the codec, and a valid target without a registered reader fails with
// UNSUPPORTED_READ_TARGET (never falls through to another reader).

/** A slice of an immutable object (multi-stream WAL object or per-stream generation object). */
export interface ObjectSliceTarget {
  readonly type: "OBJECT_SLICE";
  readonly version: 1;
  readonly objectKey: string;
  readonly objectType: "MULTI_STREAM_WAL_OBJECT" | "STREAM_GENERATION_OBJECT" | "MEMORY_OBJECT";
  readonly sliceOffset: number;
  /** > 0 */
  readonly sliceLength: number;
  /** CRC32C of the slice bytes. */
  readonly sliceChecksum: number;
  readonly entryCount: number;
}

/** A contiguous range of BookKeeper entries in one ledger. */
export interface BookKeeperEntryRangeTarget {
  readonly type: "BOOKKEEPER_ENTRY_RANGE";
  readonly version: 1;
  readonly clusterAlias: string;
  /** Decimal string: BookKeeper ledger ids are int64. */
  readonly ledgerId: string;
  readonly firstEntryId: number;
  /** > 0 */
  readonly entryCount: number;
  /** CRC32C over the concatenated entry payloads of the range. */
  readonly rangeChecksum: number;
}

export type ReadTarget = ObjectSliceTarget | BookKeeperEntryRangeTarget;
export type ReadTargetType = ReadTarget["type"];
