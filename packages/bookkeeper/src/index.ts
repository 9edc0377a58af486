// Public API of @nereus/bookkeeper: the BookKeeper client (ledgers: create, add, open with recovery, read) and the
// BookKeeper WAL runtime, with the types their options, results and fields name. Helpers sibling packages and
// tooling share live on ./internal (not a stable API). Every export is named here.

// Client: ledger handles, recovery, ledger metadata.
export {
  BookKeeperClient,
  createBookKeeperClient,
  type BookKeeperClientOptions,
  type CreateLedgerOptions,
  type OpenLedgerOptions,
  type ClientCallOptions,
} from "./client/bookkeeper-client.js";
export { LedgerHandle, type AddOptions } from "./client/ledger-handle.js";
export { ReadOnlyLedgerHandle } from "./client/read-only-ledger-handle.js";
export type { LedgerEntry, ReadCallOptions } from "./client/ledger-entry-reader.js";
export type { DigestType } from "./digest/digest-type.js";
export type { LedgerMetadata, LedgerSegment, LedgerState } from "./metadata/ledger-metadata.js";
export type { VersionedLedgerMetadata } from "./metadata/ledger-metadata-store.js";

// BookKeeper WAL provider: the runtime of one process (writer, BOOKKEEPER_ENTRY_RANGE reader, coordinators).
export {
  createBookKeeperWalRuntime,
  type BookKeeperWalRuntime,
  type BookKeeperWalRuntimeOptions,
  type BookKeeperWalStoreProviders,
} from "./wal/create-bookkeeper-wal-runtime.js";
export type { LedgerRolloverPolicy } from "./wal/bookkeeper-wal-context.js";
export { BookKeeperWalWriter } from "./wal/bookkeeper-wal-writer.js";
export { BookKeeperWalReader } from "./wal/bookkeeper-wal-reader.js";
export { BookKeeperWalStats } from "./wal/bookkeeper-wal-stats.js";

// Ledger reclamation (README, "Ledger reclamation"): the collector of the BookKeeper profiles' ledgers.
export {
  BookKeeperLedgerReclaimer,
  type BookKeeperLedgerReclaimerOptions,
  type LedgerReclamationLogger,
  type LedgerReclamationRunReport,
  type MaterializationGuard,
} from "./reclamation/bookkeeper-ledger-reclaimer.js";
export type { LedgerReclamationHooks, LedgerReclamationPolicy } from "./reclamation/ledger-reclamation-context.js";
export type { LedgerReclamation, LedgerReclamationState } from "./reclamation/ledger-reclamation-records.js";
export type { LedgerSweepReport } from "./reclamation/orphan-ledgers.js";
