// Public API of @nereus/object-wal: the two object stores, the Object WAL runtime and the types their options,
// results and fields name. Helpers sibling packages and tooling share live on ./internal (not a stable API); fakes
// and conformance suites on ./testing. Every export is named here.

// Object stores (core's ObjectStore SPI).
export { S3ObjectStore, createS3ObjectStore, type S3ObjectStoreOptions } from "./s3-object-store.js";
export {
  FileSystemObjectStore,
  createFileSystemObjectStore,
  type FileSystemObjectStoreOptions,
  type ObjectDurability,
  type SegmentLayoutOptions,
} from "./file-system/file-system-object-store.js";
export type { SegmentLogStats } from "./file-system/segments/segment-log.js";
export type { HotSegmentReadsStats } from "./file-system/segments/hot-segment-reads.js";
export type { LentReadBuffersStats } from "./file-system/segments/lent-read-buffers.js";
export type { StoreWriteHealth, StoreWriteHealthListener, StoreWriter } from "./file-system/store-write-health.js";

// Object WAL runtime: writer, reader, lag admission, required-generation coordinator, materialization worker.
export {
  createObjectWalRuntime,
  type ObjectWalRuntime,
  type ObjectWalRuntimeOptions,
  type ObjectWalStoreProviders,
} from "./runtime/create-object-wal-runtime.js";
export type { FlushPolicy } from "./writer/flush-policy.js";
export type { MaterializationLagBound } from "./generations/materialization-lag.js";
export type { MaterializationPolicy } from "./generations/plan-materialization.js";
export { ObjectWalWriter, ObjectWalWriterStats, type ObjectWalWriterHooks } from "./writer/object-wal-writer.js";
export { ObjectWalReader, ObjectWalReaderStats } from "./reader/object-wal-reader.js";
export { MaterializationLagAdmission } from "./profiles/materialization-lag-admission.js";
export { StreamRegistry } from "./generations/stream-registry.js";
export { RequiredGenerationCoordinator } from "./profiles/required-generation-coordinator.js";
export {
  MaterializationWorker,
  MaterializationWorkerStats,
  type MaterializationHooks,
  type MaterializationPassResult,
} from "./generations/materialization-worker.js";

// Storage reclamation of the Object WAL profiles (packages/core/README.md, "Storage reclamation").
export {
  StreamReclaimer,
  type ReclamationLogger,
  type ReclamationRunReport,
  type StreamReclaimerOptions,
} from "./reclamation/stream-reclaimer.js";
export {
  DEFAULT_RECLAMATION_POLICY,
  type ReclamationHooks,
  type ReclamationPolicy,
} from "./reclamation/reclamation-context.js";
export type { ObjectReclamation, ReclamationState } from "./reclamation/reclamation-records.js";
export { materializationGuard, type MaterializationUse } from "./reclamation/materialization-guard.js";
export {
  ObjectOrphanSweeper,
  type ObjectOrphanReport,
  type ObjectOrphanSweeperOptions,
} from "./reclamation/object-orphans.js";
