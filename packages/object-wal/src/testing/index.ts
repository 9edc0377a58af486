// @nereus/object-wal/testing: the Object WAL acceptance suite that every metadata/object store combination runs,
// its harness, and fault-injecting wrappers around real stores. Test-only; never used by production code paths.
export {
  describeObjectWalAcceptance,
  type ObjectWalAcceptanceStack,
  type ObjectWalAcceptanceClients,
  type ObjectWalAcceptanceOptions,
} from "./object-wal-acceptance.js";
export { ObjectWalStack, opaque, ranged, type ObjectWalProcess, type OpenProcessOptions } from "./object-wal-stack.js";
export { FaultInjectingMetadataStore, type TxnFaultRule } from "./fault-injecting-metadata-store.js";
export { FaultInjectingObjectStore, CountingObjectStoreStats } from "./fault-injecting-object-store.js";
export {
  runReclamationHistory,
  ReclamationHistoryTally,
  type ReclamationHistoryOptions,
} from "./reclamation-history.js";
