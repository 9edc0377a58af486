// The NRM1 envelope around every metadata record value (docs/architecture.md §8.1). Layout, big-endian:
//   magic                  4 bytes  "NRM1"
//   recordType             u32 length + UTF-8 (stable name, e.g. "StreamHead")
//   schemaVersion          u16      (>= 1)
//   minReaderSchemaVersion u16      (1 .. schemaVersion)
//   payloadEncoding        u8       1 = canonical binary v1 (the only encoding)
//   payloadLength          u32
//   payloadCrc32c          u32      CRC32C of the payload bytes
//   payload                payloadLength bytes
// A reader accepts only schema versions it knows (a newer schema is rejected even when minReaderSchemaVersion
// would allow it: readers also write heads back, and must never drop fields they do not understand).
import { ByteReader } from "../bytes/byte-reader.js";
import { ByteWriter, withScratchWriter } from "../bytes/byte-writer.js";
import { crc32c } from "../bytes/crc32c.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

/** "NRM1". */
const RECORD_ENVELOPE_MAGIC: Uint8Array = new Uint8Array([0x4e, 0x52, 0x4d, 0x31]);
/** The only payload encoding: deterministic big-endian binary. */
const CANONICAL_BINARY_V1 = 1;

export interface RecordEnvelopeHeader {
  readonly recordType: string;
  readonly schemaVersion: number;
  readonly minReaderSchemaVersion: number;
}

export interface DecodedRecordEnvelope extends RecordEnvelopeHeader {
  /** A view into the input bytes. */
  readonly payload: Uint8Array;
}

/** Wraps `payload` in an NRM1 envelope. */
export function encodeRecordEnvelope(header: RecordEnvelopeHeader, payload: Uint8Array): Uint8Array {
  return new ByteWriter(payload.length + 48)
    .writeBytes(RECORD_ENVELOPE_MAGIC)
    .writeString(header.recordType)
    .writeU16(header.schemaVersion)
    .writeU16(header.minReaderSchemaVersion)
    .writeU8(CANONICAL_BINARY_V1)
    .writeU32(payload.length)
    .writeU32(crc32c(payload))
    .writeBytes(payload)
    .finish();
}

/**
 * The same bytes as `encodeRecordEnvelope(header, payload)` where `payload` is what `writePayload` writes, built
 * in one scratch writer: the payload is written in place after the header, then its length and CRC32C are
 * filled in. One allocation (the returned array). `writePayload` must leave no length slot open.
 */
export function encodeRecord(header: RecordEnvelopeHeader, writePayload: (writer: ByteWriter) => void): Uint8Array {
  return withScratchWriter((writer) => {
    writer
      .writeBytes(RECORD_ENVELOPE_MAGIC)
      .writeString(header.recordType)
      .writeU16(header.schemaVersion)
      .writeU16(header.minReaderSchemaVersion)
      .writeU8(CANONICAL_BINARY_V1);
    const lengthAt = writer.length;
    writer.writeU32(0).writeU32(0);
    const payloadStart = writer.length;
    writePayload(writer);
    const payload = writer.view(payloadStart);
    writer.setU32(lengthAt, payload.length).setU32(lengthAt + 4, crc32c(payload));
    return writer.finish();
  });
}

function violation(context: string, message: string, cause?: unknown): NereusError {
  return new NereusError(ErrorCode.METADATA_INVARIANT_VIOLATION, `${context}: ${message}`, { retryable: false, cause });
}

/**
 * Opens an NRM1 envelope that must hold `expectedRecordType` at a schema version in 1..`readerSchemaVersion`.
 * Every failure (bad magic, wrong type, unknown or newer schema, unknown encoding, truncation, trailing bytes,
 * CRC mismatch, malformed UTF-8) throws `NereusError(METADATA_INVARIANT_VIOLATION)` prefixed with `context`.
 */
export function decodeRecordEnvelope(
  bytes: Uint8Array,
  expectedRecordType: string,
  readerSchemaVersion: number,
  context: string = expectedRecordType,
): DecodedRecordEnvelope {
  const reader = new ByteReader(bytes, "NRM1 envelope");
  try {
    reader.expectBytes(RECORD_ENVELOPE_MAGIC, "magic");
    const recordType = reader.readString("recordType");
    if (recordType !== expectedRecordType) {
      throw violation(
        context,
        `record type is ${JSON.stringify(recordType)}, expected ${JSON.stringify(expectedRecordType)}`,
      );
    }
    const schemaVersion = reader.readU16("schemaVersion");
    const minReaderSchemaVersion = reader.readU16("minReaderSchemaVersion");
    if (schemaVersion < 1 || minReaderSchemaVersion < 1 || minReaderSchemaVersion > schemaVersion) {
      throw violation(context, `malformed schema versions ${String(schemaVersion)}/${String(minReaderSchemaVersion)}`);
    }
    if (minReaderSchemaVersion > readerSchemaVersion || schemaVersion > readerSchemaVersion) {
      throw violation(
        context,
        `newer unknown schema version ${String(schemaVersion)} (needs reader >= ${String(minReaderSchemaVersion)}); ` +
          `this reader knows up to ${String(readerSchemaVersion)}`,
      );
    }
    const encoding = reader.readU8("payloadEncoding");
    if (encoding !== CANONICAL_BINARY_V1) throw violation(context, `unknown payload encoding ${String(encoding)}`);
    const payloadLength = reader.readU32("payloadLength");
    const storedCrc = reader.readU32("payloadCrc32c");
    if (reader.remaining < payloadLength) {
      throw violation(
        context,
        `truncated payload: header declares ${String(payloadLength)} bytes, ${String(reader.remaining)} present`,
      );
    }
    const payload = reader.readBytes(payloadLength, "payload");
    if (reader.remaining > 0)
      throw violation(context, `${String(reader.remaining)} trailing byte(s) after the payload`);
    const computedCrc = crc32c(payload);
    if (computedCrc !== storedCrc) {
      throw violation(
        context,
        `payload CRC32C mismatch: stored 0x${storedCrc.toString(16).padStart(8, "0")}, computed 0x${computedCrc.toString(16).padStart(8, "0")}`,
      );
    }
    return { recordType, schemaVersion, minReaderSchemaVersion, payload };
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.DECODE_ERROR)) throw violation(context, error.message, error);
    throw error;
  }
}
