// Decoder (and encoder, for tests and tooling) of BookKeeper v3 `Response` messages. Unknown fields and unknown
// per-operation responses are skipped; a missing proto2 `required` field is a DECODE_ERROR. Byte fields are views
// into the frame (copy before retaining).
//
// Wire grammar (proto2; `?` = optional):
//   Response              = header:1 BKPacketHeader, status:2 enum, readResponse:100?, addResponse:101?,
//                           writeLacResponse:103?, readLacResponse:104?, getBookieInfoResponse:105?
//   ReadResponse          = status:1 enum, ledgerId:2 int64, entryId:3 int64, body:4 bytes?, maxLAC:5 int64?,
//                           lacUpdateTimestamp:6 int64?
//   AddResponse           = status:1 enum, ledgerId:2 int64, entryId:3 int64
//   WriteLacResponse      = status:1 enum, ledgerId:2 int64
//   ReadLacResponse       = status:1 enum, ledgerId:2 int64, lacBody:3 bytes?, lastEntryBody:4 bytes?
//   GetBookieInfoResponse = status:1 enum, totalDiskCapacity:2 int64?, freeDiskSpace:3 int64?
import { ProtoReader } from "../protobuf/proto-reader.js";
import { ProtoWriter } from "../protobuf/proto-writer.js";
import type {
  AddResponse,
  BookieResponse,
  GetBookieInfoResponse,
  ReadLacResponse,
  ReadResponse,
  WriteLacResponse,
} from "./bookie-messages.js";
import { PROTOCOL_VERSION_THREE } from "./operation-type.js";

function missing(reader: ProtoReader, field: string): never {
  throw reader.error(`required field ${field} is missing`);
}

interface InnerFields {
  status?: number;
  ledgerId?: bigint;
  entryId?: number;
  bytes3?: Uint8Array;
  bytes4?: Uint8Array;
  int2?: bigint;
  int3?: bigint;
  int5?: number;
  int6?: bigint;
}

/** Walks one per-operation response; `layout` says how fields 2..6 are typed in that message. */
function readInner(reader: ProtoReader, layout: "read" | "add" | "ledger" | "readLac" | "info"): InnerFields {
  const out: InnerFields = {};
  for (let tag = reader.next(); tag !== undefined; tag = reader.next()) {
    if (tag.field === 1) out.status = reader.int32();
    else if (layout === "info" && tag.field === 2) out.int2 = reader.int64();
    else if (layout === "info" && tag.field === 3) out.int3 = reader.int64();
    else if (tag.field === 2 && layout !== "info") out.ledgerId = reader.int64();
    else if (tag.field === 3 && (layout === "read" || layout === "add")) out.entryId = reader.safeInt64();
    else if (tag.field === 3 && layout === "readLac") out.bytes3 = reader.bytes();
    else if (tag.field === 4 && (layout === "read" || layout === "readLac")) out.bytes4 = reader.bytes();
    else if (tag.field === 5 && layout === "read") out.int5 = reader.safeInt64();
    else if (tag.field === 6 && layout === "read") out.int6 = reader.int64();
    else reader.skip();
  }
  if (out.status === undefined) missing(reader, "status");
  if (layout !== "info" && out.ledgerId === undefined) missing(reader, "ledgerId");
  if ((layout === "read" || layout === "add") && out.entryId === undefined) missing(reader, "entryId");
  return out;
}

/** Decodes a v3 Response payload (no frame prefix). */
export function decodeResponse(bytes: Uint8Array): BookieResponse {
  const reader = new ProtoReader(bytes, "Response");
  let operation: number | undefined;
  let txnId: bigint | undefined;
  let status: number | undefined;
  const result: {
    addResponse?: AddResponse;
    readResponse?: ReadResponse;
    readLacResponse?: ReadLacResponse;
    writeLacResponse?: WriteLacResponse;
    getBookieInfoResponse?: GetBookieInfoResponse;
  } = {};
  for (let tag = reader.next(); tag !== undefined; tag = reader.next()) {
    switch (tag.field) {
      case 1: {
        const header = reader.message("header");
        let version: number | undefined;
        for (let inner = header.next(); inner !== undefined; inner = header.next()) {
          if (inner.field === 1) version = header.int32();
          else if (inner.field === 2) operation = header.int32();
          else if (inner.field === 3) txnId = header.uint64();
          else header.skip();
        }
        if (version !== PROTOCOL_VERSION_THREE) throw header.error(`unsupported protocol version ${String(version)}`);
        break;
      }
      case 2:
        status = reader.int32();
        break;
      case 100: {
        const f = readInner(reader.message("readResponse"), "read");
        result.readResponse = {
          status: f.status ?? 0,
          ledgerId: f.ledgerId ?? 0n,
          entryId: f.entryId ?? 0,
          ...(f.bytes4 === undefined ? {} : { body: f.bytes4 }),
          ...(f.int5 === undefined ? {} : { maxLac: f.int5 }),
          ...(f.int6 === undefined ? {} : { lacUpdateTimestamp: f.int6 }),
        };
        break;
      }
      case 101: {
        const f = readInner(reader.message("addResponse"), "add");
        result.addResponse = { status: f.status ?? 0, ledgerId: f.ledgerId ?? 0n, entryId: f.entryId ?? 0 };
        break;
      }
      case 103: {
        const f = readInner(reader.message("writeLacResponse"), "ledger");
        result.writeLacResponse = { status: f.status ?? 0, ledgerId: f.ledgerId ?? 0n };
        break;
      }
      case 104: {
        const f = readInner(reader.message("readLacResponse"), "readLac");
        result.readLacResponse = {
          status: f.status ?? 0,
          ledgerId: f.ledgerId ?? 0n,
          ...(f.bytes3 === undefined ? {} : { lacBody: f.bytes3 }),
          ...(f.bytes4 === undefined ? {} : { lastEntryBody: f.bytes4 }),
        };
        break;
      }
      case 105: {
        const f = readInner(reader.message("getBookieInfoResponse"), "info");
        result.getBookieInfoResponse = {
          status: f.status ?? 0,
          ...(f.int2 === undefined ? {} : { totalDiskCapacity: f.int2 }),
          ...(f.int3 === undefined ? {} : { freeDiskSpace: f.int3 }),
        };
        break;
      }
      default:
        reader.skip();
    }
  }
  if (operation === undefined || txnId === undefined) missing(reader, "header");
  if (status === undefined) missing(reader, "status");
  return { operation, txnId, status, ...result };
}

/** Encodes a v3 Response payload (no frame prefix). Used by tests; a client never sends responses. */
export function encodeResponse(response: BookieResponse): Uint8Array {
  const header = new ProtoWriter()
    .int32(1, PROTOCOL_VERSION_THREE)
    .int32(2, response.operation)
    .uint64(3, response.txnId);
  const writer = new ProtoWriter().message(1, header).int32(2, response.status);
  const read = response.readResponse;
  if (read !== undefined) {
    const inner = new ProtoWriter().int32(1, read.status).int64(2, read.ledgerId).int64(3, read.entryId);
    if (read.body !== undefined) inner.bytes(4, read.body);
    if (read.maxLac !== undefined) inner.int64(5, read.maxLac);
    if (read.lacUpdateTimestamp !== undefined) inner.int64(6, read.lacUpdateTimestamp);
    writer.message(100, inner);
  }
  const add = response.addResponse;
  if (add !== undefined)
    writer.message(101, new ProtoWriter().int32(1, add.status).int64(2, add.ledgerId).int64(3, add.entryId));
  const writeLac = response.writeLacResponse;
  if (writeLac !== undefined)
    writer.message(103, new ProtoWriter().int32(1, writeLac.status).int64(2, writeLac.ledgerId));
  const readLac = response.readLacResponse;
  if (readLac !== undefined) {
    const inner = new ProtoWriter().int32(1, readLac.status).int64(2, readLac.ledgerId);
    if (readLac.lacBody !== undefined) inner.bytes(3, readLac.lacBody);
    if (readLac.lastEntryBody !== undefined) inner.bytes(4, readLac.lastEntryBody);
    writer.message(104, inner);
  }
  const info = response.getBookieInfoResponse;
  if (info !== undefined) {
    const inner = new ProtoWriter().int32(1, info.status);
    if (info.totalDiskCapacity !== undefined) inner.int64(2, info.totalDiskCapacity);
    if (info.freeDiskSpace !== undefined) inner.int64(3, info.freeDiskSpace);
    writer.message(105, inner);
  }
  return writer.finish();
}
