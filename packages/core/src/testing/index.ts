// @nereus/core/testing: in-memory reference providers with fault injection and the conformance suites that
// every real provider runs. Test-only; never used by production code paths.
export {};
export { InMemoryMetadataStore, type InMemoryMetadataStoreOptions } from "./in-memory-metadata-store.js";
export { FaultRules, type FaultRule } from "./fault-rules.js";
export { deleteObjectsUnder } from "./delete-objects-under.js";
export { corruptObjectSlice } from "./corrupt-object-slice.js";
export { streamHeadFixture } from "./stream-head-fixture.js";
export {
  MetadataFaults,
  type MetadataFaultMode,
  type MetadataFaultOp,
  type MetadataFaultRule,
} from "./metadata-faults.js";
export { MetadataStoreStats } from "./metadata-store-stats.js";
export {
  describeMetadataStoreConformance,
  type MetadataStoreConformanceFixture,
} from "./metadata-store-conformance.js";
export {
  InMemoryObjectStore,
  ObjectStoreFaults,
  ObjectStoreStats,
  type ObjectStoreFaultMode,
  type ObjectStoreFaultOp,
  type ObjectStoreFaultRule,
} from "./in-memory-object-store.js";
export { describeObjectStoreConformance, type ObjectStoreConformanceFixture } from "./object-store-conformance.js";
export { MemoryWalProvider, type MemoryWalProviderOptions } from "./memory-wal-provider.js";
export { WalFaults, type WalFaultMode, type WalFaultOp, type WalFaultRule } from "./wal-faults.js";
export { WalProviderStats } from "./wal-provider-stats.js";
export { manualGate, type ManualGate } from "./manual-gate.js";
export { expectNereusError, nereusRejectionOf, rejectionOf } from "./rejections.js";
export { expectOptionalPeerDependencies, simulateMissingDependencies } from "./missing-dependencies.js";
export {
  describeWalProviderConformance,
  type WalProviderConformanceFixture,
  type WalProviderConformanceOptions,
} from "./wal-provider-conformance.js";
export {
  APPEND_PROTOCOL_WAL_CAPABILITIES,
  describeAppendProtocolConformance,
  type AppendProtocolConformanceOptions,
  type AppendProtocolStack,
  type AppendProtocolWalCapability,
} from "./append-protocol-conformance.js";
export {
  AppendProtocolHarness,
  memoryAppendProtocolWal,
  expectAppendFailure,
  opaqueBatch,
  rangedBatch,
  text,
  type AppendProtocolWal,
  type ExpectedAppendFailure,
  type PersistFaultMode,
} from "./append-protocol-harness.js";
export { FaultInjectingMetadataStore } from "./fault-injecting-metadata-store.js";
export { describeAppendHistoryProperty, type AppendHistoryPropertyOptions } from "./append-history-property.js";
export { expectCorruptionRejected, invariantViolation } from "./record-corruption.js";
