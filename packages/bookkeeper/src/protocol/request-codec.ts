// Encoder (and decoder, for tests and tooling) of BookKeeper v3 `Request` messages. Fields are written in field
// number order, as protobuf-java does, and every proto2 `required` field is always set: a v3 frame the bookie
// cannot parse silently switches the connection to the v2 protocol, so it must never see one.
//
// Wire grammar (proto2; `?` = optional, omitted when absent):
//   Request         = header:1 BKPacketHeader, readRequest:100? | addRequest:101? | writeLacRequest:103?
//                     | readLacRequest:104? | getBookieInfoRequest:105?
//   BKPacketHeader  = version:1 enum (=3), operation:2 enum, txnId:3 uint64, priority:4 uint32?
//   ReadRequest     = ledgerId:1 int64, entryId:2 int64, masterKey:3 bytes?, previousLAC:4 int64?, timeOut:5 int64?,
//                     flag:100 enum?
//   AddRequest      = ledgerId:1 int64, entryId:2 int64, masterKey:3 bytes, body:4 bytes, writeFlags:5 int32?,
//                     flag:100 enum?
//   WriteLacRequest = ledgerId:1 int64, lac:2 int64, masterKey:3 bytes, body:4 bytes
//   ReadLacRequest  = ledgerId:1 int64
//   GetBookieInfoRequest = requested:1 int64?
// Encoded chunks may reference the caller's body arrays; they must stay unchanged until written.
import { ProtoReader } from "../protobuf/proto-reader.js";
import { ProtoWriter } from "../protobuf/proto-writer.js";
import type { AddFlag, BookieRequest, BookieRequestBody, ReadFlag } from "./bookie-messages.js";
import { OperationType, PROTOCOL_VERSION_THREE } from "./operation-type.js";

const REQUEST_FIELD = { add: 101, read: 100, writeLac: 103, readLac: 104, getBookieInfo: 105 } as const;

/** The v3 operation type a request body performs. */
export function operationOf(body: BookieRequestBody): OperationType {
  switch (body.type) {
    case "add":
      return OperationType.ADD_ENTRY;
    case "read":
      return OperationType.READ_ENTRY;
    case "readLac":
      return OperationType.READ_LAC;
    case "writeLac":
      return OperationType.WRITE_LAC;
    case "getBookieInfo":
      return OperationType.GET_BOOKIE_INFO;
  }
}

function encodeBody(body: BookieRequestBody): ProtoWriter {
  const writer = new ProtoWriter();
  switch (body.type) {
    case "add":
      writer.int64(1, body.ledgerId).int64(2, body.entryId).bytes(3, body.masterKey).bytesFromParts(4, body.body);
      if (body.writeFlags !== undefined) writer.int32(5, body.writeFlags);
      if (body.flag !== undefined) writer.int32(100, body.flag);
      return writer;
    case "read":
      writer.int64(1, body.ledgerId).int64(2, body.entryId);
      if (body.masterKey !== undefined) writer.bytes(3, body.masterKey);
      if (body.previousLac !== undefined) writer.int64(4, body.previousLac);
      if (body.timeOutMs !== undefined) writer.int64(5, body.timeOutMs);
      if (body.flag !== undefined) writer.int32(100, body.flag);
      return writer;
    case "writeLac":
      return writer.int64(1, body.ledgerId).int64(2, body.lac).bytes(3, body.masterKey).bytes(4, body.body);
    case "readLac":
      return writer.int64(1, body.ledgerId);
    case "getBookieInfo":
      return writer.int64(1, body.requested);
  }
}

/** Encodes a v3 Request (without the frame length prefix) as chunks ready for a vectored socket write. */
export function encodeRequest(request: BookieRequest): Uint8Array[] {
  const header = new ProtoWriter()
    .int32(1, PROTOCOL_VERSION_THREE)
    .int32(2, operationOf(request.body))
    .uint64(3, request.txnId);
  if (request.priority !== undefined && request.priority !== 0) header.uint64(4, request.priority);
  return new ProtoWriter()
    .message(1, header)
    .message(REQUEST_FIELD[request.body.type], encodeBody(request.body))
    .chunks();
}

/** Encodes a v3 Request with its `[int32 length]` frame prefix, as chunks. */
export function encodeRequestFrame(request: BookieRequest): Uint8Array[] {
  const chunks = encodeRequest(request);
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const prefix = new Uint8Array(4);
  new DataView(prefix.buffer).setUint32(0, length);
  return [prefix, ...chunks];
}

function missing(reader: ProtoReader, field: string): never {
  throw reader.error(`required field ${field} is missing`);
}

function decodeBody(reader: ProtoReader, field: number): BookieRequestBody {
  let ledgerId: bigint | undefined;
  let entryId: number | undefined;
  let masterKey: Uint8Array | undefined;
  let body: Uint8Array | undefined;
  let flag: number | undefined;
  let writeFlags: number | undefined;
  let previousLac: number | undefined;
  let timeOutMs: number | undefined;
  let requested = 0;
  for (let tag = reader.next(); tag !== undefined; tag = reader.next()) {
    if (field === REQUEST_FIELD.getBookieInfo && tag.field === 1) requested = reader.safeInt64();
    else if (tag.field === 1) ledgerId = reader.int64();
    else if (tag.field === 2 && field !== REQUEST_FIELD.readLac) entryId = reader.safeInt64();
    else if (tag.field === 3 && field !== REQUEST_FIELD.readLac) masterKey = reader.bytes();
    else if (tag.field === 4 && (field === REQUEST_FIELD.add || field === REQUEST_FIELD.writeLac))
      body = reader.bytes();
    else if (tag.field === 4 && field === REQUEST_FIELD.read) previousLac = reader.safeInt64();
    else if (tag.field === 5 && field === REQUEST_FIELD.add) writeFlags = reader.int32();
    else if (tag.field === 5 && field === REQUEST_FIELD.read) timeOutMs = reader.safeInt64();
    else if (tag.field === 100 && (field === REQUEST_FIELD.add || field === REQUEST_FIELD.read)) flag = reader.int32();
    else reader.skip();
  }
  if (field === REQUEST_FIELD.getBookieInfo) return { type: "getBookieInfo", requested };
  if (ledgerId === undefined) missing(reader, "ledgerId");
  if (field === REQUEST_FIELD.readLac) return { type: "readLac", ledgerId };
  if (entryId === undefined) missing(reader, field === REQUEST_FIELD.writeLac ? "lac" : "entryId");
  if (field === REQUEST_FIELD.read) {
    return {
      type: "read",
      ledgerId,
      entryId,
      ...(flag === undefined ? {} : { flag: flag as ReadFlag }),
      ...(masterKey === undefined ? {} : { masterKey }),
      ...(previousLac === undefined ? {} : { previousLac }),
      ...(timeOutMs === undefined ? {} : { timeOutMs }),
    };
  }
  if (masterKey === undefined) missing(reader, "masterKey");
  if (body === undefined) missing(reader, "body");
  if (field === REQUEST_FIELD.writeLac) return { type: "writeLac", ledgerId, lac: entryId, masterKey, body };
  return {
    type: "add",
    ledgerId,
    entryId,
    masterKey,
    body: [body],
    ...(flag === undefined ? {} : { flag: flag as AddFlag }),
    ...(writeFlags === undefined ? {} : { writeFlags }),
  };
}

/** Decodes a v3 Request payload (no frame prefix). Byte fields are views into `bytes`. */
export function decodeRequest(bytes: Uint8Array): BookieRequest {
  const reader = new ProtoReader(bytes, "Request");
  let txnId: bigint | undefined;
  let operation: number | undefined;
  let priority = 0;
  let body: BookieRequestBody | undefined;
  for (let tag = reader.next(); tag !== undefined; tag = reader.next()) {
    if (tag.field === 1) {
      const header = reader.message("header");
      let version: number | undefined;
      for (let inner = header.next(); inner !== undefined; inner = header.next()) {
        if (inner.field === 1) version = header.int32();
        else if (inner.field === 2) operation = header.int32();
        else if (inner.field === 3) txnId = header.uint64();
        else if (inner.field === 4) priority = Number(header.uint64());
        else header.skip();
      }
      if (version !== PROTOCOL_VERSION_THREE) throw header.error(`unsupported protocol version ${String(version)}`);
    } else if (Object.values(REQUEST_FIELD).includes(tag.field as never)) {
      body = decodeBody(reader.message(`field${String(tag.field)}`), tag.field);
    } else {
      reader.skip();
    }
  }
  if (txnId === undefined || operation === undefined) missing(reader, "header");
  if (body === undefined) missing(reader, "request body");
  if (operationOf(body) !== operation)
    throw reader.error(`header operation ${String(operation)} does not match the body`);
  return { txnId, ...(priority === 0 ? {} : { priority }), body };
}
