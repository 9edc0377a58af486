// Public API of @nereus/core. Every export is named here.
export { ErrorCode, RETRIABLE_BY_DEFAULT } from "./errors/error-code.js";
export { NereusError, type NereusErrorOptions } from "./errors/nereus-error.js";
export { AppendFailedError, type AppendOutcome, type AppendAttemptId } from "./errors/append-outcome.js";
export { MetadataAmbiguousError } from "./errors/metadata-ambiguous-error.js";

export {
  CANONICAL_STORAGE_PROFILES,
  type StorageProfile,
  type StorageProfileName,
  type PrimaryWalKind,
  type DurabilityLevel,
  type AppendCompletionPolicy,
  type AppendAckBoundary,
  type StorageProfileTraits,
} from "./domain/storage-profile.js";
export type { StreamHead, StreamState, AppendSession } from "./domain/stream-head.js";
export type { ReadTarget, ReadTargetType, ObjectSliceTarget, BookKeeperEntryRangeTarget } from "./domain/read-target.js";
export type {
  PayloadFormat,
  AppendEntry,
  AppendBatch,
  AppendOptions,
  AppendResult,
  ReadOptions,
  ReadEntry,
  ReadResult,
} from "./domain/append-types.js";
export type { CommitIntent, ReplayMarker, OffsetIndexEntry } from "./domain/commit-records.js";
export type { GenerationIndexEntry, GenerationIndexState } from "./domain/generation-records.js";

export {
  METADATA_STORE_SPI_VERSION,
  type MetadataStore,
  type KeyValue,
  type RevisionCompare,
  type ValueCompare,
  type TxnCompare,
  isValueCompare,
  type WriteOp,
  type TxnRequest,
  type TxnResult,
  type ScanOptions,
  type ScanPage,
  type OperationOptions,
  type WatchEvent,
  type WatchHandle,
  type Lease,
} from "./spi/metadata-store.js";
export {
  WAL_SPI_VERSION,
  type WalWriter,
  type WalReader,
  type WalWriteRequest,
  type PreparedWrite,
  type PersistedWrite,
  type TargetProtection,
  type ProtectionConflictVerdict,
  type StoredEntry,
  type WalIoOptions,
} from "./spi/wal.js";
export {
  DURABILITY_GATE_WORDS,
  DurabilityGateWord,
  SharedDurabilityGates,
  awaitDurabilityGate,
  durabilityGateFailed,
  type DurabilityGate,
  type SharedDurabilityGate,
} from "./spi/durability-gate.js";
export {
  DEFAULT_LATENCY_BOUNDS_SECONDS,
  SharedLatencyHistogram,
  type LatencySnapshot,
  type SharedLatencyHistogramHandle,
} from "./timing/shared-latency-histogram.js";
export { raceAbort } from "./timing/race-abort.js";
export { startWorkerModule } from "./threads/start-worker-module.js";
export type { CompletionCoordinator, CompletionContext, AdmissionHook } from "./spi/completion.js";
export {
  OBJECT_STORE_SPI_VERSION,
  type ObjectStore,
  type ObjectInfo,
  type ObjectListPage,
  type ObjectIoOptions,
  type PutOptions,
  type GatedPut,
} from "./spi/object-store.js";

// Binary helpers (src/bytes).
export { ByteWriter } from "./bytes/byte-writer.js";
export { ByteReader } from "./bytes/byte-reader.js";
export { crc32c } from "./bytes/crc32c.js";
export { crc32cCombine } from "./bytes/crc32c-combine.js";
export { sha256, sha256Hex } from "./bytes/sha256.js";
export { base32LowerNoPad, decodeBase32LowerNoPad } from "./bytes/base32-lower-no-pad.js";
export { toHex, fromHex } from "./bytes/hex.js";
export { encodeStrictUtf8, decodeStrictUtf8, isWellFormedString } from "./bytes/strict-utf8.js";
export { compareBytes, bytesEqual } from "./bytes/compare-bytes.js";
export { copyBytes } from "./bytes/copy-bytes.js";

// Identity (src/identity).
export { streamIdFromName, streamNameHash, isStreamId, STREAM_NAME_MAX_BYTES } from "./identity/stream-id-from-name.js";
export { encodeKeyComponent, decodeKeyComponent } from "./identity/key-component.js";
export { pad19, parsePad19 } from "./identity/pad19.js";
export { newFencingToken, fencingTokenHash } from "./identity/fencing-token.js";
export { deriveCommitId, type CommitIdentity } from "./identity/derive-commit-id.js";

// Metadata key layout (src/keys).
export {
  StreamKeySegment,
  clusterPrefix,
  streamsPrefix,
  streamPrefix,
  streamHeadKey,
  commitIntentKey,
  replayMarkerKey,
  offsetIndexPrefix,
  offsetIndexKey,
  offsetIndexScanStartKey,
} from "./keys/stream-keys.js";
export {
  GENERATION_INDEX_SEGMENT,
  generationIndexPrefix,
  generationIndexKey,
  generationIndexScanStartKey,
  parseGenerationIndexKey,
} from "./keys/generation-keys.js";
export {
  parseStreamHeadKey,
  parseCommitIntentKey,
  parseReplayMarkerKey,
  parseOffsetIndexKey,
  type StreamKeyLocation,
  type CommitKeyLocation,
  type OffsetIndexKeyLocation,
} from "./keys/stream-key-parsers.js";
export { isPhysicalHash, physicalShard, protectionTypeSlot } from "./keys/physical-key-components.js";

// Storage profiles (src/profiles).
export { canonicalizeProfile } from "./profiles/canonicalize-profile.js";
export { profileTraits, STORAGE_PROFILE_TRAITS } from "./profiles/profile-traits.js";
export { resolveAckBoundary } from "./profiles/resolve-ack-boundary.js";

// Metadata record codecs (src/records).
export type { RecordCodec } from "./records/record-codec.js";
export {
  RECORD_ENVELOPE_MAGIC,
  CANONICAL_BINARY_V1,
  encodeRecordEnvelope,
  decodeRecordEnvelope,
  type RecordEnvelopeHeader,
  type DecodedRecordEnvelope,
} from "./records/record-envelope.js";
export { RecordChecks } from "./records/record-checks.js";
export { WireEnum } from "./records/wire-enum.js";
export { RecordWireIds } from "./records/record-wire-ids.js";
export { readTargetCodec, READ_TARGET_MAX_BYTES, OBJECT_KEY_MAX_BYTES } from "./records/read-target-codec.js";
export { readTargetIdentity } from "./records/read-target-identity.js";
export { streamHeadCodec, STREAM_ATTRIBUTES_MAX_BYTES } from "./records/stream-head-codec.js";
export { commitIntentCodec } from "./records/commit-intent-codec.js";
export { replayMarkerCodec } from "./records/replay-marker-codec.js";
export { offsetIndexCodec } from "./records/offset-index-codec.js";
export { generationIndexCodec } from "./records/generation-index-codec.js";

// Append pipeline, lanes, recovery, read path and lifecycle (src/append, src/lane, src/commit-chain, src/recovery,
// src/read, src/lifecycle, src/session, src/stream-store, src/completion).
export { createStreamStore } from "./stream-store/create-stream-store.js";
export {
  StreamStore,
  type CreateStreamOptions,
  type CreateStreamResult,
  type AcquireSessionOptions,
  type OperationDeadlineOptions,
} from "./stream-store/stream-store.js";
export type { StreamStoreOptions } from "./stream-store/stream-store-options.js";
export { APPEND_STEPS, type AppendStep, type AppendStepContext, type AppendStepHook, type AppendStepHooks } from "./append/append-step-hooks.js";
export { StableHeadCoordinator } from "./completion/stable-head-coordinator.js";
export { GenerationZeroVisibleCoordinator } from "./completion/generation-zero-visible-coordinator.js";
export { MAX_ENTRY_RECORD_COUNT } from "./append/validate-batch.js";
export { DEFAULT_READ_MAX_BYTES, DEFAULT_READ_MAX_RECORDS } from "./read/read-stream.js";
// Derived-record repair and chain walking, for background workers (gen-0 index repair, materialization planning).
export { deriveGenerationZero, type GenerationZeroRecords } from "./read/derive-generation-zero.js";
export { ensureGenerationZero } from "./read/ensure-generation-zero.js";
export { repairGenerationZeroIndex, type RepairInput } from "./read/repair-generation-zero-index.js";
export { walkCommitChain, anchorBelow, type ChainAnchor } from "./commit-chain/walk-commit-chain.js";
export { planSession, type SessionPlan, type SessionPolicy, type SessionInput } from "./session/plan-session.js";
export { sameSession } from "./session/same-session.js";
export { planLifecycleTransition, type LifecycleRequest } from "./lifecycle/plan-lifecycle-transition.js";
export { classifyHeadConflict, type HeadConflictVerdict, type HeadConflictInput } from "./append/classify-head-conflict.js";
export { StreamKeyspace, type VersionedHead } from "./records/stream-keyspace.js";
