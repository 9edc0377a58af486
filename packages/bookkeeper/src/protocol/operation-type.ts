// Operation types of the BookKeeper v3 wire protocol (BookkeeperProtocol.proto `OperationType`), echoed by the
// bookie in every response header. Values are wire facts; never renumber.

/** The operation a v3 request performs. */
export const OperationType = {
  READ_ENTRY: 1,
  ADD_ENTRY: 2,
  RANGE_READ_ENTRY: 3,
  RANGE_ADD_ENTRY: 4,
  AUTH: 5,
  WRITE_LAC: 6,
  READ_LAC: 7,
  GET_BOOKIE_INFO: 8,
  START_TLS: 9,
  FORCE_LEDGER: 10,
  GET_LIST_OF_ENTRIES_OF_LEDGER: 11,
  BATCH_READ_ENTRY: 12,
} as const;

export type OperationType = (typeof OperationType)[keyof typeof OperationType];

/** The only protocol version a v3 bookie accepts in a request header (`ProtocolVersion.VERSION_THREE`). */
export const PROTOCOL_VERSION_THREE = 3;
