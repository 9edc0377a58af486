// Builds a RecordCodec from what is particular to one record type: its payload layout (write/read), its invariants
// (validate) and how it belongs to the key it is stored under (parseKey/matchKey). The frame every metadata record
// shares is here once: validate before encoding, the NRM1 envelope (record-envelope.ts), a bounds-checked payload
// reader that must be consumed to the end, validate again after decoding, the key check, and every failure reported
// as METADATA_INVARIANT_VIOLATION naming the record and its key (RecordChecks). It adds no byte of its own: the
// bytes are exactly the envelope around what `write` writes. Decoded byte fields are views into the input.
import { ByteReader } from "../bytes/byte-reader.js";
import type { ByteWriter } from "../bytes/byte-writer.js";
import type { RecordCodec } from "./record-codec.js";
import { RecordChecks } from "./record-checks.js";
import { decodeRecordEnvelope, encodeRecord, type RecordEnvelopeHeader } from "./record-envelope.js";

/** What one record type defines; `Location` is what its key parser recovers from a key. */
export interface RecordCodecSpec<T, Location> {
  readonly recordType: string;
  /** The schema this codec writes (and the newest it reads); also the oldest reader it asks for. */
  readonly schemaVersion: number;
  /** Throws through `checks` when `record` breaks an invariant (run before encoding and after decoding). */
  validate(record: T, checks: RecordChecks): void;
  /** Writes the payload of a valid record. */
  write(writer: ByteWriter, record: T): void;
  /** Reads the payload; `checks` reports unknown wire ids. The reader must be left at the end. */
  read(reader: ByteReader, checks: RecordChecks): T;
  /** Recovers the key's components; throws DECODE_ERROR for a key of another kind. */
  parseKey(key: string): Location;
  /** Throws through `checks` unless the decoded record belongs to the key it was read from. */
  matchKey(record: NoInfer<T>, location: NoInfer<Location>, checks: RecordChecks): void;
}

/** The codec of `spec`'s record type (see RecordCodec for the invariants every codec keeps). */
export function defineRecordCodec<T, Location>(spec: RecordCodecSpec<T, Location>): RecordCodec<T> {
  const header: RecordEnvelopeHeader = {
    recordType: spec.recordType,
    schemaVersion: spec.schemaVersion,
    minReaderSchemaVersion: spec.schemaVersion,
  };
  return {
    recordType: spec.recordType,
    schemaVersion: spec.schemaVersion,

    encode(record: T): Uint8Array {
      spec.validate(record, new RecordChecks(spec.recordType));
      return encodeRecord(header, (writer) => spec.write(writer, record));
    },

    decode(bytes: Uint8Array, key: string): T {
      const checks = new RecordChecks(spec.recordType, key);
      try {
        const location = spec.parseKey(key);
        const { payload } = decodeRecordEnvelope(
          bytes,
          spec.recordType,
          spec.schemaVersion,
          `${spec.recordType} ${checks.where}`,
        );
        const reader = new ByteReader(payload, `${spec.recordType} payload`);
        const record = spec.read(reader, checks);
        reader.expectEnd();
        spec.validate(record, checks);
        spec.matchKey(record, location, checks);
        return record;
      } catch (error) {
        return checks.wrap(error);
      }
    },
  };
}

/** The `matchKey` of a record keyed by its stream alone: the record's stream is the key's. */
export function matchStreamKey(
  record: { readonly streamId: string },
  location: { readonly streamId: string },
  checks: RecordChecks,
): void {
  checks.sameStream(record.streamId, location.streamId);
}
