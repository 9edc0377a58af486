// Public API of @nereus/object-wal. Every export is named here.
export { S3ObjectStore, createS3ObjectStore, type S3ObjectStoreOptions } from "./s3-object-store.js";
export {
  FileSystemObjectStore,
  createFileSystemObjectStore,
  type FileSystemObjectStoreOptions,
  type ObjectDurability,
  type SegmentLayoutOptions,
} from "./file-system-object-store.js";
export { type SegmentLogStats } from "./segments/segment-log.js";
export {
  type StoreWriteHealth,
  type StoreWriteHealthListener,
  type StoreWriter,
} from "./file-system/store-write-health.js";
export { type HotSegmentReadsStats, DEFAULT_HOT_READ_SEGMENTS } from "./segments/hot-segment-reads.js";
export { type LentReadBuffersStats, DEFAULT_LENT_READ_BUFFER_BYTES } from "./segments/lent-read-buffers.js";
export { assertObjectKey, assertListPrefix, MAX_OBJECT_KEY_BYTES } from "./object-keys/assert-object-key.js";
export { crc32cToBase64, crc32cFromBase64 } from "./crc32c-base64.js";

// NRS1 WAL object format (docs/wal-object-format.md).
export { encodeWalObject } from "./format/encode-wal-object.js";
export { decodeWalObject } from "./format/decode-wal-object.js";
export { decodeSlice } from "./format/decode-slice.js";
export { decodeWalObjectFooter } from "./format/decode-wal-object-footer.js";
export { decodeWalManifest } from "./format/decode-wal-manifest.js";
export { WAL_OBJECT_LAYOUT, walSliceId } from "./format/wal-object-layout.js";
export type {
  WalObjectInput,
  WalSliceInput,
  WalEntryInput,
  WalObjectHeader,
  WalSliceDescriptor,
  WalObjectFooter,
  EncodedWalObject,
  DecodedWalObject,
  DecodedWalSlice,
} from "./format/wal-object-model.js";
export { decodeSliceBytes, type WalSliceExpectation } from "./format/decode-slice.js";

// Object WAL provider (writer + reader over an ObjectStore).
export {
  ObjectWalWriter,
  ObjectWalWriterStats,
  type ObjectWalWriterOptions,
  type ObjectWalWriterHooks,
} from "./writer/object-wal-writer.js";
export { DEFAULT_FLUSH_POLICY, type FlushPolicy } from "./writer/flush-policy.js";
export { walObjectIdentity, newProcessRunId, type WalObjectIdentity } from "./writer/wal-object-naming.js";
export { ObjectWalReader, ObjectWalReaderStats, type ObjectWalReaderOptions } from "./reader/object-wal-reader.js";

// Physical-object roots and protections (records a later garbage collector needs; nothing here deletes).
export {
  type PhysicalObjectRoot,
  type PhysicalObjectKind,
  type PhysicalObjectLifecycle,
  type ObjectProtection,
  type ObjectProtectionType,
  PhysicalObjectWireIds,
} from "./roots/physical-object-records.js";
export { physicalObjectRootCodec } from "./roots/physical-object-root-codec.js";
export { objectProtectionCodec } from "./roots/object-protection-codec.js";
export {
  objectKeyHash,
  physicalObjectRootKey,
  objectProtectionKey,
  objectProtectionsPrefix,
  physicalObjectsPrefix,
  parsePhysicalObjectRootKey,
  parseObjectProtectionKey,
} from "./roots/physical-object-keys.js";
export {
  PhysicalObjectRoots,
  protectionReferenceId,
  type VersionedRoot,
  type RootProtection,
} from "./roots/physical-object-roots.js";

// Profiles runtime: registration + lag admission, background gen-0 repair and higher generations.
export {
  createObjectWalRuntime,
  type ObjectWalRuntime,
  type ObjectWalRuntimeOptions,
  type ObjectWalStoreProviders,
} from "./runtime/create-object-wal-runtime.js";
export { MaterializationLagAdmission } from "./profiles/materialization-lag-admission.js";
export { CoverageCache, type StreamCoverage } from "./generations/coverage-cache.js";
export { DEFAULT_LAG_BOUND, measureLag, type MaterializationLagBound } from "./generations/materialization-lag.js";
export { StreamRegistry } from "./generations/stream-registry.js";
export {
  OBJECT_WAL_PROFILES,
  BOOKKEEPER_OBJECT_PROFILES,
  LAG_BOUNDED_PROFILES,
  defaultMaterializedProfiles,
} from "./profiles/materialized-profiles.js";
export {
  MaterializationWorker,
  MaterializationWorkerStats,
  type MaterializationWorkerOptions,
  type MaterializationHooks,
  type MaterializationPassResult,
} from "./generations/materialization-worker.js";
export { DEFAULT_MATERIALIZATION_POLICY, type MaterializationPolicy } from "./generations/plan-materialization.js";
export { MaterializationStateStore, type VersionedMaterialization } from "./generations/materialization-state-store.js";
export {
  type StreamRegistration,
  type StreamMaterialization,
  type MaterializationTask,
  type MaterializationTaskState,
  type MaterializationSourceKind,
  type MaterializationClaim,
  MaterializationWireIds,
} from "./generations/materialization-records.js";
export { streamRegistrationCodec } from "./generations/stream-registration-codec.js";
export { streamMaterializationCodec } from "./generations/stream-materialization-codec.js";
export {
  streamRegistrationKey,
  streamRegistryPrefix,
  streamMaterializationKey,
} from "./generations/materialization-keys.js";
export {
  RequiredGenerationCoordinator,
  type RequiredGenerationCoordinatorOptions,
} from "./profiles/required-generation-coordinator.js";
