// Public API of @nereus/core: the stream store, its domain types, errors and outcomes, the provider SPIs with the
// completion coordinators, and the byte helpers a codec needs. Every export is named here. Helpers that only the
// sibling packages share (key layout, record codecs, repair) are on `@nereus/core/internal`, which is not a stable
// API; in-memory providers and conformance suites are on `@nereus/core/testing`.
export { ErrorCode } from "./errors/error-code.js";
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
export type {
  ReadTarget,
  ReadTargetType,
  ObjectSliceTarget,
  BookKeeperEntryRangeTarget,
} from "./domain/read-target.js";
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
  type MetadataStoreAccelerations,
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
  type WalReaderAccelerations,
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
  type DurabilityGateAccelerations,
  type SharedDurabilityGate,
} from "./spi/durability-gate.js";
export {
  SharedLatencyHistogram,
  type LatencySnapshot,
  type SharedLatencyHistogramHandle,
} from "./timing/shared-latency-histogram.js";
export { startWorkerModule } from "./threads/start-worker-module.js";
export type { CompletionCoordinator, CompletionContext, AdmissionHook } from "./spi/completion.js";
export {
  OBJECT_STORE_SPI_VERSION,
  type ObjectStore,
  type ObjectStoreAccelerations,
  type ObjectInfo,
  type ObjectListPage,
  type ObjectIoOptions,
  type PutOptions,
  type GatedPut,
} from "./spi/object-store.js";

// Binary helpers (src/bytes): what a codec over core's buffers needs.
export { ByteWriter } from "./bytes/byte-writer.js";
export { ByteReader } from "./bytes/byte-reader.js";
export { crc32c } from "./bytes/crc32c.js";
export { crc32cCombine } from "./bytes/crc32c-combine.js";
export { toHex, fromHex } from "./bytes/hex.js";
export { encodeStrictUtf8, decodeStrictUtf8 } from "./bytes/strict-utf8.js";
export { SizePrefixedFrames, type SizePrefixedFramesOptions } from "./bytes/size-prefixed-frames.js";

// Stream identity (docs/architecture.md §1).
export { streamIdFromName } from "./identity/stream-id-from-name.js";

// The stream store: append pipeline, lanes, recovery, read path and lifecycle.
export { createStreamStore } from "./stream-store/create-stream-store.js";
export {
  StreamStore,
  type CreateStreamOptions,
  type CreateStreamResult,
  type AcquireSessionOptions,
  type OperationDeadlineOptions,
} from "./stream-store/stream-store.js";
export type { StoreProviders, StreamStoreOptions } from "./stream-store/stream-store-options.js";
export {
  APPEND_STEPS,
  type AppendStep,
  type AppendStepContext,
  type AppendStepHook,
  type AppendStepHooks,
} from "./append/append-step-hooks.js";
export { StableHeadCoordinator } from "./completion/stable-head-coordinator.js";

// Storage reclamation (packages/core/README.md): in-process read pins and a collector's counters.
export { ReadPins, objectPhysicalId, physicalTargetId } from "./reclamation/read-pins.js";
export { ReclamationStats } from "./reclamation/reclamation-stats.js";
export { GenerationZeroVisibleCoordinator } from "./completion/generation-zero-visible-coordinator.js";
