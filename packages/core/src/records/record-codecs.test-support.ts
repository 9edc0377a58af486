// Test support for the record codec tests (dev-only; not part of the package API): frozen fixture values that the
// golden-byte fixtures encode, fast-check arbitraries of valid records, and corruption helpers.
import fc from "fast-check";
import type { PayloadFormat } from "../domain/append-types.js";
import type { CommitIntent, OffsetIndexEntry, ReplayMarker } from "../domain/commit-records.js";
import type { BookKeeperEntryRangeTarget, ObjectSliceTarget, ReadTarget } from "../domain/read-target.js";
import { CANONICAL_STORAGE_PROFILES } from "../domain/storage-profile.js";
import { freshStreamHead } from "../domain/fresh-stream-head.js";
import type { StreamHead } from "../domain/stream-head.js";
import { fencingTokenHash } from "../identity/fencing-token.js";
import { streamIdFromName } from "../identity/stream-id-from-name.js";
import { clusterPrefix } from "../keys/stream-keys.js";
import { decodeRecordEnvelope, encodeRecordEnvelope } from "./record-envelope.js";

export const TEST_PREFIX = clusterPrefix("test");
export const ORDERS_ID = streamIdFromName("orders");
const GOLDEN_COMMIT_ID = "cxjnvgershmzdmcolzij3qnzb5ds35g3reichtrstn76524iwpwq";

export const FIXTURE_OBJECT_SLICE: ObjectSliceTarget = {
  type: "OBJECT_SLICE",
  version: 1,
  objectKey: "wal/v1/00/0000000000000000042-abc",
  objectType: "MULTI_STREAM_WAL_OBJECT",
  sliceOffset: 4096,
  sliceLength: 321,
  sliceChecksum: 0xe3069283,
  entryCount: 2,
};

export const FIXTURE_BOOKKEEPER_RANGE: BookKeeperEntryRangeTarget = {
  type: "BOOKKEEPER_ENTRY_RANGE",
  version: 1,
  clusterAlias: "bk-main",
  ledgerId: "9223372036854775807",
  firstEntryId: 17,
  entryCount: 2,
  rangeChecksum: 0x12345678,
};

export const FIXTURE_FRESH_HEAD: StreamHead = freshStreamHead({
  streamId: ORDERS_ID,
  streamName: "orders",
  profile: "OBJECT_WAL_SYNC_OBJECT",
  attributes: {},
  createdAtMillis: 1_700_000_000_000,
});

const PARTITION_NAME = "persistent://public/default/orders-partition-0";

export const FIXTURE_SESSION_HEAD: StreamHead = {
  streamId: streamIdFromName(PARTITION_NAME),
  streamName: PARTITION_NAME,
  state: "SEALED",
  profile: "BOOKKEEPER_WAL_SYNC_OBJECT",
  attributes: {
    "retention.ms": "604800000",
    "nereus.append.authority.mode": "EXTERNAL_MONOTONIC_TERM_V1",
    é: "x",
    Z: "last?",
  },
  createdAtMillis: 1_700_000_000_000,
  committedEndOffset: 105,
  cumulativeSize: 4096,
  commitVersion: 7,
  trimOffset: 100,
  lastCommitId: GOLDEN_COMMIT_ID,
  session: {
    writerId: "broker-1",
    epoch: 3,
    fencingToken: "token-1",
    leaseVersion: 12,
    expiresAtMillis: 1_700_000_030_000,
  },
};

export const FIXTURE_INTENT: CommitIntent = {
  streamId: ORDERS_ID,
  commitId: GOLDEN_COMMIT_ID,
  previousCommitId: "previouscommit",
  offsetStart: 100,
  offsetEnd: 105,
  cumulativeSize: 4096,
  commitVersion: 7,
  writerId: "broker-1",
  writerEpoch: 3,
  fencingTokenHash: fencingTokenHash("token-1"),
  readTarget: FIXTURE_BOOKKEEPER_RANGE,
  payloadFormat: "KAFKA_RECORD_BATCH",
  recordCount: 5,
  entryCount: 2,
  logicalBytes: 321,
  entryRecordCounts: [3, 2],
};

export const FIXTURE_MARKER: ReplayMarker = {
  streamId: ORDERS_ID,
  commitId: GOLDEN_COMMIT_ID,
  offsetStart: 100,
  offsetEnd: 105,
  commitVersion: 7,
};

export const FIXTURE_INDEX: OffsetIndexEntry = {
  streamId: ORDERS_ID,
  offsetStart: 100,
  offsetEnd: 105,
  generation: 0,
  commitId: GOLDEN_COMMIT_ID,
  commitVersion: 7,
  cumulativeSize: 4096,
  readTarget: FIXTURE_OBJECT_SLICE,
  payloadFormat: "KAFKA_RECORD_BATCH",
  entryRecordCounts: [3, 2],
};

const text = (maxLength = 24): fc.Arbitrary<string> => fc.string({ unit: "grapheme", minLength: 1, maxLength });
const u32 = fc.nat({ max: 0xffff_ffff });
const offset = fc.nat({ max: 2 ** 50 });

const objectSliceArbitrary: fc.Arbitrary<ObjectSliceTarget> = fc.record({
  type: fc.constant("OBJECT_SLICE" as const),
  version: fc.constant(1 as const),
  objectKey: text(60),
  objectType: fc.constantFrom(
    "MULTI_STREAM_WAL_OBJECT" as const,
    "STREAM_GENERATION_OBJECT" as const,
    "MEMORY_OBJECT" as const,
  ),
  sliceOffset: offset,
  sliceLength: fc.integer({ min: 1, max: 2 ** 40 }),
  sliceChecksum: u32,
  entryCount: fc.integer({ min: 1, max: 0xffff_ffff }),
});

const bookKeeperRangeArbitrary: fc.Arbitrary<BookKeeperEntryRangeTarget> = fc.record({
  type: fc.constant("BOOKKEEPER_ENTRY_RANGE" as const),
  version: fc.constant(1 as const),
  clusterAlias: text(),
  ledgerId: fc.bigInt({ min: 0n, max: 9_223_372_036_854_775_807n }).map(String),
  firstEntryId: offset,
  entryCount: fc.integer({ min: 1, max: 0xffff_ffff }),
  rangeChecksum: u32,
});

export const readTargetArbitrary: fc.Arbitrary<ReadTarget> = fc.oneof(objectSliceArbitrary, bookKeeperRangeArbitrary);

const payloadFormatArbitrary = fc.constantFrom<PayloadFormat>(
  "OPAQUE_RECORD_BATCH",
  "KAFKA_RECORD_BATCH",
  "PULSAR_ENTRY_BATCH",
);

/** A payload format with per-entry record counts that are valid for it. */
const entriesArbitrary: fc.Arbitrary<{ payloadFormat: PayloadFormat; entryRecordCounts: number[] }> =
  payloadFormatArbitrary.chain((payloadFormat) =>
    fc
      .array(payloadFormat === "KAFKA_RECORD_BATCH" ? fc.integer({ min: 1, max: 0x7fff_ffff }) : fc.constant(1), {
        minLength: 1,
        maxLength: 8,
      })
      .map((entryRecordCounts) => ({ payloadFormat, entryRecordCounts })),
  );

const sum = (counts: readonly number[]): number => counts.reduce((total, count) => total + count, 0);

export const streamHeadArbitrary: fc.Arbitrary<StreamHead> = fc
  .record({
    streamName: text(40),
    state: fc.constantFrom("ACTIVE" as const, "SEALED" as const, "DELETING" as const, "DELETED" as const),
    profile: fc.constantFrom(...CANONICAL_STORAGE_PROFILES),
    attributes: fc.dictionary(
      fc.string({ unit: "grapheme", maxLength: 12 }),
      fc.string({ unit: "grapheme", maxLength: 12 }),
      {
        maxKeys: 6,
        noNullPrototype: true,
      },
    ),
    createdAtMillis: fc.maxSafeNat(),
    commitVersion: fc.nat({ max: 2 ** 40 }),
    committedEndOffset: fc.integer({ min: 1, max: 2 ** 50 }),
    trimFraction: fc.double({ min: 0, max: 1, noNaN: true }),
    cumulativeSize: fc.nat({ max: 2 ** 50 }),
    lastCommitId: text(),
    session: fc.option(
      fc.record({
        writerId: text(),
        epoch: fc.maxSafeNat(),
        fencingToken: text(),
        leaseVersion: fc.maxSafeNat(),
        expiresAtMillis: fc.maxSafeNat(),
      }),
      { nil: undefined },
    ),
  })
  .map(({ trimFraction, ...value }) => {
    const empty = value.commitVersion === 0;
    const committedEndOffset = empty ? 0 : value.committedEndOffset;
    return {
      ...value,
      streamId: streamIdFromName(value.streamName),
      committedEndOffset,
      cumulativeSize: empty ? 0 : value.cumulativeSize,
      lastCommitId: empty ? "" : value.lastCommitId,
      trimOffset: Math.floor(committedEndOffset * trimFraction),
    };
  });

export const commitIntentArbitrary: fc.Arbitrary<CommitIntent> = fc
  .record({
    streamId: text(),
    commitId: text(),
    first: fc.boolean(),
    previousCommitId: text(),
    offsetStart: offset,
    commitVersion: fc.integer({ min: 2, max: 2 ** 40 }),
    extraSize: fc.nat({ max: 2 ** 40 }),
    writerId: text(),
    writerEpoch: fc.maxSafeNat(),
    fencingTokenHash: fc
      .uint8Array({ minLength: 32, maxLength: 32 })
      .map((bytes) => Buffer.from(bytes).toString("hex")),
    readTarget: readTargetArbitrary,
    entries: entriesArbitrary,
    logicalBytes: fc.nat({ max: 2 ** 40 }),
  })
  .filter((value) => value.previousCommitId !== value.commitId)
  .map(({ first, extraSize, entries, ...value }) => {
    const recordCount = sum(entries.entryRecordCounts);
    const offsetStart = first ? 0 : value.offsetStart;
    return {
      ...value,
      previousCommitId: first ? "" : value.previousCommitId,
      commitVersion: first ? 1 : value.commitVersion,
      offsetStart,
      offsetEnd: offsetStart + recordCount,
      cumulativeSize: value.logicalBytes + (first ? 0 : extraSize),
      payloadFormat: entries.payloadFormat,
      entryRecordCounts: entries.entryRecordCounts,
      recordCount,
      entryCount: entries.entryRecordCounts.length,
    };
  });

export const replayMarkerArbitrary: fc.Arbitrary<ReplayMarker> = fc
  .record({
    streamId: text(),
    commitId: text(),
    offsetStart: offset,
    length: fc.integer({ min: 1, max: 2 ** 40 }),
    commitVersion: fc.integer({ min: 1, max: 2 ** 50 }),
  })
  .map(({ length, ...value }) => ({ ...value, offsetEnd: value.offsetStart + length }));

export const offsetIndexArbitrary: fc.Arbitrary<OffsetIndexEntry> = fc
  .record({
    streamId: text(),
    offsetStart: offset,
    generation: fc.oneof(fc.constant(0), fc.nat({ max: 2 ** 40 })),
    commitId: text(),
    commitVersion: fc.integer({ min: 1, max: 2 ** 50 }),
    cumulativeSize: fc.nat({ max: 2 ** 50 }),
    readTarget: readTargetArbitrary,
    entries: entriesArbitrary,
  })
  .map(({ entries, ...value }) => ({
    ...value,
    offsetEnd: value.offsetStart + sum(entries.entryRecordCounts),
    payloadFormat: entries.payloadFormat,
    entryRecordCounts: entries.entryRecordCounts,
  }));

/** Re-wraps a record after `patch` edits a copy of its payload, with a correct CRC (a well-formed but wrong record). */
export function withPatchedPayload(
  bytes: Uint8Array,
  recordType: string,
  patch: (payload: DataView) => void,
): Uint8Array {
  const payload = decodeRecordEnvelope(bytes, recordType, 1).payload.slice();
  patch(new DataView(payload.buffer));
  return encodeRecordEnvelope({ recordType, schemaVersion: 1, minReaderSchemaVersion: 1 }, payload);
}

/** Wraps an arbitrary payload as a schema-1 record of `recordType`. */
export function wrapPayload(
  recordType: string,
  payload: Uint8Array,
  schemaVersion = 1,
  minReaderSchemaVersion = 1,
): Uint8Array {
  return encodeRecordEnvelope({ recordType, schemaVersion, minReaderSchemaVersion }, payload);
}
