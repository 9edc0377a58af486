// Public API of @nereus/bookkeeper. Every export is named here.

// Wire protocol v3 (protobuf) and framing.
export { ProtoWriter } from "./protobuf/proto-writer.js";
export { ProtoReader, type ProtoTag } from "./protobuf/proto-reader.js";
export { WireType } from "./protobuf/wire-type.js";
export { StatusCode, statusCodeName } from "./protocol/status-code.js";
export { OperationType, PROTOCOL_VERSION_THREE } from "./protocol/operation-type.js";
export {
  AddFlag,
  ReadFlag,
  type AddRequest,
  type ReadRequest,
  type ReadLacRequest,
  type WriteLacRequest,
  type GetBookieInfoRequest,
  type BookieRequestBody,
  type BookieRequest,
  type AddResponse,
  type ReadResponse,
  type ReadLacResponse,
  type WriteLacResponse,
  type GetBookieInfoResponse,
  type BookieResponse,
} from "./protocol/bookie-messages.js";
export { encodeRequest, encodeRequestFrame, decodeRequest, operationOf } from "./protocol/request-codec.js";
export { encodeResponse, decodeResponse } from "./protocol/response-codec.js";
export { FrameDecoder, DEFAULT_MAX_FRAME_SIZE } from "./protocol/frame-decoder.js";

// Entry digests and the master key.
export { type DigestType, DIGEST_TYPE_NUMBER, DIGEST_LENGTH, digestTypeFromNumber } from "./digest/digest-type.js";
export { deriveMasterKey, passwordBytes, EMPTY_PASSWORD_MASTER_KEY_HEX } from "./digest/master-key.js";
export { createDigestManager, type DigestManager } from "./digest/digest-manager.js";
export {
  packageEntry,
  unpackEntry,
  packageLac,
  unpackLac,
  ENTRY_HEADER_LENGTH,
  LAC_HEADER_LENGTH,
  type EntryHeader,
  type UnpackedEntry,
} from "./digest/entry-codec.js";

// Ledger metadata in ZooKeeper (BookKeeper's own layout and format 3), id generation, bookie discovery.
export {
  ZooKeeperSession,
  type ZooKeeperSessionOptions,
  type ZooKeeperCallOptions,
  type ZNodeData,
} from "./zookeeper/zookeeper-session.js";
export {
  type LedgerMetadata,
  type LedgerSegment,
  type LedgerState,
  segmentFor,
  lastSegment,
} from "./metadata/ledger-metadata.js";
export {
  encodeLedgerMetadata,
  decodeLedgerMetadata,
  validateLedgerMetadata,
  METADATA_FORMAT_VERSION,
} from "./metadata/ledger-metadata-serde.js";
export { type LedgerLayout, parseLedgerLayout } from "./metadata/ledger-layout.js";
export { ledgerPath } from "./metadata/ledger-path.js";
export { ZooKeeperLedgerIdGenerator } from "./metadata/ledger-id-generator.js";
export {
  ZooKeeperLedgerMetadataStore,
  type VersionedLedgerMetadata,
  type CreateLedgerMetadataResult,
  type WriteLedgerMetadataResult,
} from "./metadata/ledger-metadata-store.js";
export {
  BookieRegistry,
  type BookieAddress,
  parseBookieId,
  parseBookieServiceInfo,
} from "./metadata/bookie-registry.js";
export {
  mapBookieStatus,
  mapBookieTransportError,
  mapZooKeeperError,
  type BookieOperationKind,
  type BookieErrorContext,
} from "./errors/map-bookie-error.js";

// Client: bookie connections, ledger handles, recovery.
export { BookieConnection, type BookieConnectionOptions, type BookieSendOptions } from "./client/bookie-connection.js";
export {
  BookieClient,
  type BookieCallOptions,
  type BookieReadResult,
  type BookieReadLacResult,
} from "./client/bookie-client.js";
export { writeSetOf, isQuorumCovered } from "./client/distribution-schedule.js";
export { chooseBookies } from "./client/placement.js";
export {
  LedgerEntryReader,
  type LedgerEntry,
  type ReadCallOptions,
  type LastEntryProbe,
  type RecoveryReadResult,
} from "./client/ledger-entry-reader.js";
export {
  LedgerHandle,
  type LedgerHandleContext,
  type LedgerHandleInit,
  type AddOptions,
} from "./client/ledger-handle.js";
export {
  ReadOnlyLedgerHandle,
  type ReadOnlyLedgerContext,
  type ReadOnlyLedgerInit,
} from "./client/read-only-ledger-handle.js";
export { recoverLedger, type RecoveryOutcome } from "./client/ledger-recovery.js";
export {
  BookKeeperClient,
  createBookKeeperClient,
  type BookKeeperClientOptions,
  type CreateLedgerOptions,
  type OpenLedgerOptions,
  type ClientCallOptions,
} from "./client/bookkeeper-client.js";

// BookKeeper WAL provider (src/wal): writer, reader, ledger lifecycle records and the runtime of one process.
export {
  createBookKeeperWalRuntime,
  type BookKeeperWalRuntime,
  type BookKeeperWalRuntimeOptions,
  type BookKeeperWalStoreProviders,
} from "./wal/create-bookkeeper-wal-runtime.js";
export { BookKeeperWalWriter, maxEntryPayload } from "./wal/bookkeeper-wal-writer.js";
export { BookKeeperWalReader, type BookKeeperWalReaderOptions } from "./wal/bookkeeper-wal-reader.js";
export { BookKeeperWalStats } from "./wal/bookkeeper-wal-stats.js";
export {
  DEFAULT_ROLLOVER_POLICY,
  type LedgerRolloverPolicy,
  type LedgerQuorums,
  type BookKeeperWalContext,
} from "./wal/bookkeeper-wal-context.js";
export { StreamLedgers, type ActiveLedger, type StreamSlot } from "./wal/stream-ledgers.js";
export {
  encodeEntryFrame,
  decodeEntryFrame,
  ENTRY_FRAME_MAGIC,
  ENTRY_FRAME_OVERHEAD,
  ENTRY_FRAME_MAX_PAYLOAD,
  type EntryFrame,
} from "./wal/entry-frame.js";
export {
  type BookKeeperWriterState,
  type WriterStateLifecycle,
  type WriterStateLedger,
  type LedgerOwner,
  type BookKeeperLedgerRoot,
  type LedgerRootLifecycle,
  type BookKeeperRangeProtection,
  type RangeProtectionType,
  BookKeeperWalWireIds,
  sameOwner,
} from "./wal/records/bookkeeper-wal-records.js";
export {
  BookKeeperKeySegment,
  ledgerHash,
  ledgerShard,
  writerStateKey,
  ledgerRootKey,
  ledgerRangesPrefix,
  rangeProtectionKey,
  physicalBookKeeperPrefix,
  parseWriterStateKey,
  parseLedgerRootKey,
  parseRangeProtectionKey,
  type WriterStateKeyLocation,
  type LedgerRootKeyLocation,
  type RangeProtectionKeyLocation,
} from "./wal/records/bookkeeper-wal-keys.js";
export { writerStateCodec } from "./wal/records/writer-state-codec.js";
export { ledgerRootCodec } from "./wal/records/ledger-root-codec.js";
export { rangeProtectionCodec } from "./wal/records/range-protection-codec.js";
