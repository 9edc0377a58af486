// Ledger metadata bytes exactly as BookKeeper stores them in ZooKeeper, format version 3:
//   "BookieMetadataFormatVersion\t3\n" ‖ varint(length) ‖ LedgerMetadataFormat (protobuf)
// LedgerMetadataFormat fields: quorumSize:1 int32, ensembleSize:2 int32, length:3 int64, lastEntryId:4 int64?,
// state:5 enum (OPEN=1, IN_RECOVERY=2, CLOSED=3), segment:6* { ensembleMember:1* string, firstEntryId:2 int64 },
// digestType:7 enum?, password:8 bytes?, ackQuorumSize:9 int32?, ctime:10 int64?,
// customMetadata:11* { key:1 string, value:2 bytes }, cToken:12 int64?.
// Written in field-number order with the fields the Java writer always sets. Formats 1 and 2 (text) are only
// detected and rejected as UNSUPPORTED_FORMAT; every 4.x writer since 4.9 defaults to format 3.
import { ErrorCode, NereusError } from "@nereus/core";
import { DIGEST_TYPE_NUMBER, digestTypeFromNumber, type DigestType } from "../digest/digest-type.js";
import { ProtoReader } from "../protobuf/proto-reader.js";
import { ProtoWriter } from "../protobuf/proto-writer.js";
import type { LedgerMetadata, LedgerSegment, LedgerState } from "./ledger-metadata.js";

const HEADER_KEY = "BookieMetadataFormatVersion\t";
const STATE_NUMBER: Readonly<Record<LedgerState, number>> = { OPEN: 1, IN_RECOVERY: 2, CLOSED: 3 };
const encoder = new TextEncoder();

/** The format this client writes. */
const METADATA_FORMAT_VERSION = 3;

function decodeError(message: string, details: Record<string, unknown> = {}): NereusError {
  return new NereusError(ErrorCode.DECODE_ERROR, `ledger metadata: ${message}`, { details });
}

/** Checks the structural invariants of ledger metadata; throws INVALID_ARGUMENT naming the broken one. */
function validateLedgerMetadata(metadata: LedgerMetadata, code: ErrorCode = ErrorCode.INVALID_ARGUMENT): void {
  const fail = (message: string) => {
    throw new NereusError(code, `ledger metadata: ${message}`, { details: { ensembleSize: metadata.ensembleSize } });
  };
  const { ensembleSize: e, writeQuorumSize: qw, ackQuorumSize: qa } = metadata;
  if (!Number.isInteger(e) || !Number.isInteger(qw) || !Number.isInteger(qa) || !(e >= qw && qw >= qa && qa >= 1)) {
    fail(
      `quorums must satisfy ensemble ≥ write quorum ≥ ack quorum ≥ 1 (got ${String(e)}/${String(qw)}/${String(qa)})`,
    );
  }
  if (metadata.segments.length === 0) fail("no ensemble segments");
  let previous = -1;
  for (const segment of metadata.segments) {
    if (!Number.isSafeInteger(segment.firstEntryId) || segment.firstEntryId < 0)
      fail(`segment first entry ${String(segment.firstEntryId)} is invalid`);
    if (previous === -1 ? segment.firstEntryId !== 0 : segment.firstEntryId <= previous)
      fail("segments must start at 0 and increase");
    previous = segment.firstEntryId;
    if (segment.ensemble.length !== e)
      fail(
        `segment at ${String(segment.firstEntryId)} has ${String(segment.ensemble.length)} bookies, ensemble size is ${String(e)}`,
      );
    if (new Set(segment.ensemble).size !== segment.ensemble.length)
      fail(`segment at ${String(segment.firstEntryId)} repeats a bookie`);
  }
  if (!Number.isSafeInteger(metadata.lastEntryId) || metadata.lastEntryId < -1)
    fail(`lastEntryId ${String(metadata.lastEntryId)} is invalid`);
  if (!Number.isSafeInteger(metadata.length) || metadata.length < 0)
    fail(`length ${String(metadata.length)} is invalid`);
}

/** Serializes metadata in format 3 (the bytes of the ledger znode). */
export function encodeLedgerMetadata(metadata: LedgerMetadata): Uint8Array {
  validateLedgerMetadata(metadata);
  const format = new ProtoWriter()
    .int32(1, metadata.writeQuorumSize)
    .int32(2, metadata.ensembleSize)
    .int64(3, metadata.length)
    .int64(4, metadata.lastEntryId)
    .int32(5, STATE_NUMBER[metadata.state]);
  for (const segment of metadata.segments) {
    const nested = new ProtoWriter();
    for (const bookie of segment.ensemble) nested.string(1, bookie);
    format.message(6, nested.int64(2, segment.firstEntryId));
  }
  format.int32(7, DIGEST_TYPE_NUMBER[metadata.digestType]).bytes(8, metadata.password).int32(9, metadata.ackQuorumSize);
  if (metadata.ctimeMs !== undefined) format.int64(10, metadata.ctimeMs);
  for (const [key, value] of Object.entries(metadata.customMetadata))
    format.message(11, new ProtoWriter().string(1, key).bytes(2, value));
  if (metadata.cToken !== undefined) format.int64(12, metadata.cToken);
  const body = format.finish();
  const prefix = new ProtoWriter().bytes(1, body).finish().subarray(1); // varint(length) ‖ body
  const header = encoder.encode(`${HEADER_KEY}${String(METADATA_FORMAT_VERSION)}\n`);
  const out = new Uint8Array(header.length + prefix.length);
  out.set(header, 0);
  out.set(prefix, header.length);
  return out;
}

/** Reads the format version header; returns the version and where the body starts. */
function readHeader(bytes: Uint8Array): { version: number; bodyStart: number } {
  const key = encoder.encode(HEADER_KEY);
  for (let index = 0; index < key.length; index += 1) {
    if (bytes[index] !== key[index])
      throw decodeError("missing the BookieMetadataFormatVersion header", { offset: index });
  }
  let at = key.length;
  let digits = "";
  while (at < bytes.length && bytes[at] !== 0x0a && digits.length < 10) {
    const byte = bytes[at] ?? 0;
    if (byte < 0x30 || byte > 0x39) throw decodeError("format version is not a number", { offset: at });
    digits += String.fromCharCode(byte);
    at += 1;
  }
  if (bytes[at] !== 0x0a || digits === "") throw decodeError("format version line is not terminated", { offset: at });
  return { version: Number(digits), bodyStart: at + 1 };
}

/**
 * Parses ledger znode bytes. `znodeCtimeMs` is not stored in the result: callers fall back to it when
 * `ctimeMs` is absent, as BookKeeper does.
 * @throws DECODE_ERROR on malformed bytes, UNSUPPORTED_FORMAT for formats 1 and 2.
 */
export function decodeLedgerMetadata(bytes: Uint8Array): LedgerMetadata {
  const { version, bodyStart } = readHeader(bytes);
  if (version !== METADATA_FORMAT_VERSION) {
    throw new NereusError(
      ErrorCode.UNSUPPORTED_FORMAT,
      `ledger metadata format ${String(version)} is not supported (only ${String(METADATA_FORMAT_VERSION)})`,
      {
        details: { version },
      },
    );
  }
  // The body is one varint-length-delimited message (protobuf writeDelimitedTo).
  let lengthBytes = 0;
  let length = 0;
  let terminated = false;
  while (!terminated) {
    const byte = bytes[bodyStart + lengthBytes];
    if (byte === undefined || lengthBytes >= 5) throw decodeError("malformed length prefix");
    length += (byte & 0x7f) * 128 ** lengthBytes;
    lengthBytes += 1;
    terminated = (byte & 0x80) === 0;
  }
  const start = bodyStart + lengthBytes;
  if (start + length !== bytes.length) {
    throw decodeError(
      `length prefix ${String(length)} does not match the ${String(bytes.length - start)} remaining byte(s)`,
    );
  }
  return decodeFormat(new ProtoReader(bytes.subarray(start), "LedgerMetadataFormat"));
}

function decodeFormat(reader: ProtoReader): LedgerMetadata {
  let quorumSize: number | undefined;
  let ensembleSize: number | undefined;
  let length: number | undefined;
  let lastEntryId = -1;
  let stateNumber: number | undefined;
  const segments: LedgerSegment[] = [];
  let digestNumber: number | undefined;
  let password: Uint8Array | undefined;
  let ackQuorumSize: number | undefined;
  let ctimeMs: number | undefined;
  // Entries, not assignments: a key such as "__proto__" must become an own property, never a prototype.
  const customEntries: Array<[string, Uint8Array]> = [];
  let cToken: bigint | undefined;
  for (let tag = reader.next(); tag !== undefined; tag = reader.next()) {
    switch (tag.field) {
      case 1:
        quorumSize = reader.int32();
        break;
      case 2:
        ensembleSize = reader.int32();
        break;
      case 3:
        length = reader.safeInt64();
        break;
      case 4:
        lastEntryId = reader.safeInt64();
        break;
      case 5:
        stateNumber = reader.int32();
        break;
      case 6:
        segments.push(decodeSegment(reader.message("segment")));
        break;
      case 7:
        digestNumber = reader.int32();
        break;
      case 8:
        password = reader.bytes().slice();
        break;
      case 9:
        ackQuorumSize = reader.int32();
        break;
      case 10:
        ctimeMs = reader.safeInt64();
        break;
      case 11:
        customEntries.push(decodeCustomMetadataEntry(reader.message("customMetadata")));
        break;
      case 12:
        cToken = reader.int64();
        break;
      default:
        reader.skip();
    }
  }
  if (quorumSize === undefined) throw reader.error("required field quorumSize is missing");
  if (ensembleSize === undefined) throw reader.error("required field ensembleSize is missing");
  if (length === undefined) throw reader.error("required field length is missing");
  if (stateNumber === undefined) throw reader.error("required field state is missing");
  const state = (Object.entries(STATE_NUMBER).find(([, value]) => value === stateNumber)?.[0] ?? undefined) as
    LedgerState | undefined;
  if (state === undefined) throw reader.error(`unknown ledger state ${String(stateNumber)}`);
  // Without a password the Java reader ignores the digest type; CRC32 is its builder default.
  const digestType: DigestType | undefined = digestNumber === undefined ? "CRC32" : digestTypeFromNumber(digestNumber);
  if (digestType === undefined) throw reader.error(`unknown digest type ${String(digestNumber)}`);
  const metadata: LedgerMetadata = {
    ensembleSize,
    writeQuorumSize: quorumSize,
    ackQuorumSize: ackQuorumSize ?? quorumSize,
    state,
    lastEntryId: state === "CLOSED" ? lastEntryId : -1,
    length: state === "CLOSED" ? length : 0,
    segments,
    digestType,
    password: password ?? new Uint8Array(0),
    ...(ctimeMs === undefined ? {} : { ctimeMs }),
    customMetadata: Object.fromEntries(customEntries) as Record<string, Uint8Array>,
    ...(cToken === undefined ? {} : { cToken }),
  };
  validateLedgerMetadata(metadata, ErrorCode.DECODE_ERROR);
  return metadata;
}

/** One `segment:6` message: { ensembleMember:1* string, firstEntryId:2 int64 }. */
function decodeSegment(segment: ProtoReader): LedgerSegment {
  const ensemble: string[] = [];
  let firstEntryId: number | undefined;
  for (let inner = segment.next(); inner !== undefined; inner = segment.next()) {
    if (inner.field === 1) ensemble.push(segment.string());
    else if (inner.field === 2) firstEntryId = segment.safeInt64();
    else segment.skip();
  }
  if (firstEntryId === undefined) throw segment.error("required field firstEntryId is missing");
  return { firstEntryId, ensemble };
}

/** One `customMetadata:11` message: { key:1 string, value:2 bytes } (the value copied out of the znode bytes). */
function decodeCustomMetadataEntry(entry: ProtoReader): [string, Uint8Array] {
  let key = "";
  let value: Uint8Array = new Uint8Array(0);
  for (let inner = entry.next(); inner !== undefined; inner = entry.next()) {
    if (inner.field === 1) key = entry.string();
    else if (inner.field === 2) value = entry.bytes().slice();
    else entry.skip();
  }
  return [key, value];
}
