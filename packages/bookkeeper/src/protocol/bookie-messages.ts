// Plain-object shapes of the BookKeeper v3 requests and responses this client speaks (BookkeeperProtocol.proto).
// Field names follow the proto; ledger ids and txn ids are bigint (int64/uint64), entry ids and LACs are safe
// integers (-1 is "none"/"last entry"). Byte fields on decoded responses are views into the received frame.

/** Read flags (ReadRequest.Flag). Only one may be set per request. */
export const ReadFlag = { FENCE_LEDGER: 1, ENTRY_PIGGYBACK: 2 } as const;
export type ReadFlag = (typeof ReadFlag)[keyof typeof ReadFlag];

/** Add flags (AddRequest.Flag). */
export const AddFlag = { RECOVERY_ADD: 1 } as const;
export type AddFlag = (typeof AddFlag)[keyof typeof AddFlag];

/** AddRequest (op ADD_ENTRY): store `body` (header + digest + payload) as entry `entryId`. */
interface AddRequest {
  readonly type: "add";
  readonly ledgerId: bigint;
  readonly entryId: number;
  /** 20-byte ledger key; the bookie stores the first one it sees and rejects others with EUA. */
  readonly masterKey: Uint8Array;
  /** The packaged entry as consecutive chunks (encoded as one `bytes` field without concatenating). */
  readonly body: readonly Uint8Array[];
  /** RECOVERY_ADD passes through a fence. */
  readonly flag?: AddFlag;
  readonly writeFlags?: number;
}

/** ReadRequest (op READ_ENTRY). `entryId = -1` reads the last entry the bookie has for the ledger. */
interface ReadRequest {
  readonly type: "read";
  readonly ledgerId: bigint;
  readonly entryId: number;
  /** FENCE_LEDGER requires `masterKey`. */
  readonly flag?: ReadFlag;
  readonly masterKey?: Uint8Array;
  readonly previousLac?: number;
  readonly timeOutMs?: number;
}

/** ReadLacRequest (op READ_LAC). */
interface ReadLacRequest {
  readonly type: "readLac";
  readonly ledgerId: bigint;
}

/** WriteLacRequest (op WRITE_LAC): `body` is the packaged LAC record (ledgerId, lac, digest). */
interface WriteLacRequest {
  readonly type: "writeLac";
  readonly ledgerId: bigint;
  readonly lac: number;
  readonly masterKey: Uint8Array;
  readonly body: Uint8Array;
}

/** GetBookieInfoRequest (op GET_BOOKIE_INFO); `requested` is a bit set (1 = total disk, 2 = free disk). */
interface GetBookieInfoRequest {
  readonly type: "getBookieInfo";
  readonly requested: number;
}

/** Every request body this client can send. */
export type BookieRequestBody = AddRequest | ReadRequest | ReadLacRequest | WriteLacRequest | GetBookieInfoRequest;

/** A complete v3 Request: the packet header facts plus one body. */
export interface BookieRequest {
  readonly txnId: bigint;
  /** Header priority (the Java client raises it for recovery traffic); omitted when 0. */
  readonly priority?: number;
  readonly body: BookieRequestBody;
}

export interface AddResponse {
  readonly status: number;
  readonly ledgerId: bigint;
  readonly entryId: number;
}

export interface ReadResponse {
  readonly status: number;
  readonly ledgerId: bigint;
  readonly entryId: number;
  readonly body?: Uint8Array;
  readonly maxLac?: number;
  readonly lacUpdateTimestamp?: bigint;
}

export interface ReadLacResponse {
  readonly status: number;
  readonly ledgerId: bigint;
  readonly lacBody?: Uint8Array;
  readonly lastEntryBody?: Uint8Array;
}

export interface WriteLacResponse {
  readonly status: number;
  readonly ledgerId: bigint;
}

export interface GetBookieInfoResponse {
  readonly status: number;
  readonly totalDiskCapacity?: bigint;
  readonly freeDiskSpace?: bigint;
}

/** A decoded v3 Response. `status` is the envelope status; the per-operation status is the meaningful one. */
export interface BookieResponse {
  readonly operation: number;
  readonly txnId: bigint;
  readonly status: number;
  readonly addResponse?: AddResponse;
  readonly readResponse?: ReadResponse;
  readonly readLacResponse?: ReadLacResponse;
  readonly writeLacResponse?: WriteLacResponse;
  readonly getBookieInfoResponse?: GetBookieInfoResponse;
}
