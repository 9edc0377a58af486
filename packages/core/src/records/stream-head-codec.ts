// StreamHead record codec (NRM1 recordType "StreamHead", schema 1). Payload layout, big-endian:
//   streamId            string
//   streamName          string
//   state               u8 wire id (ACTIVE 1, SEALED 2, DELETING 3, DELETED 4)
//   profile             u8 wire id (canonical profiles only, see RecordWireIds)
//   attributes          u32 count, then (key string, value string)* strictly ascending by UTF-8 key bytes
//   createdAtMillis     u64
//   committedEndOffset  u64
//   cumulativeSize      u64
//   commitVersion       u64
//   trimOffset          u64
//   lastCommitId        string ("" before the first commit)
//   session             u8 presence (0/1), then if 1:
//     writerId string, epoch u64, fencingToken string, leaseVersion u64, expiresAtMillis u64
import type { AppendSession, StreamHead } from "../domain/stream-head.js";
import { ByteReader } from "../bytes/byte-reader.js";
import { compareBytes } from "../bytes/compare-bytes.js";
import { decodeStrictUtf8, encodeStrictUtf8, isWellFormedString } from "../bytes/strict-utf8.js";
import { streamIdFromName } from "../identity/stream-id-from-name.js";
import { parseStreamHeadKey } from "../keys/stream-key-parsers.js";
import type { RecordCodec } from "./record-codec.js";
import { RecordChecks } from "./record-checks.js";
import { decodeRecordEnvelope, encodeRecord, type RecordEnvelopeHeader } from "./record-envelope.js";
import { RecordWireIds } from "./record-wire-ids.js";

const RECORD_TYPE = "StreamHead";
const SCHEMA_VERSION = 1;
const HEADER: RecordEnvelopeHeader = {
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,
  minReaderSchemaVersion: SCHEMA_VERSION,
};
/** Upper bound of the encoded attribute map (count + keys + values). */
const STREAM_ATTRIBUTES_MAX_BYTES = 16 * 1024;

interface EncodedAttribute {
  readonly key: Uint8Array;
  readonly value: Uint8Array;
}

function validateSession(session: AppendSession, checks: RecordChecks): void {
  checks.text("session.writerId", session.writerId);
  checks.natural("session.epoch", session.epoch);
  checks.text("session.fencingToken", session.fencingToken);
  checks.natural("session.leaseVersion", session.leaseVersion);
  checks.natural("session.expiresAtMillis", session.expiresAtMillis);
}

/** Sorted, size-checked attribute entries. */
function encodeAttributes(attributes: unknown, checks: RecordChecks): EncodedAttribute[] {
  if (typeof attributes !== "object" || attributes === null || Array.isArray(attributes)) {
    throw checks.fail("attributes must be a string-to-string record");
  }
  let size = 4;
  const entries: EncodedAttribute[] = [];
  for (const [key, value] of Object.entries(attributes as Record<string, unknown>)) {
    // Named (JSON.stringify) only when the check is about to fail.
    if (!isWellFormedString(key)) checks.text(`attribute key ${JSON.stringify(key)}`, key, true);
    if (typeof value !== "string" || !isWellFormedString(value))
      checks.text(`attribute ${JSON.stringify(key)}`, value, true);
    const entry = { key: encodeStrictUtf8(key), value: encodeStrictUtf8(value as string) };
    size += 8 + entry.key.length + entry.value.length;
    entries.push(entry);
  }
  if (size > STREAM_ATTRIBUTES_MAX_BYTES)
    throw checks.fail(`attributes encode to ${String(size)} bytes; the maximum is 16 KiB`);
  return entries.sort((a, b) => compareBytes(a.key, b.key));
}

function validateHead(head: StreamHead, checks: RecordChecks): EncodedAttribute[] {
  checks.text("streamName", head.streamName);
  checks.text("streamId", head.streamId);
  let derived: string;
  try {
    derived = streamIdFromName(head.streamName);
  } catch (cause) {
    throw checks.fail("streamName is not a valid stream name", cause);
  }
  if (head.streamId !== derived)
    throw checks.fail(`streamId ${head.streamId} is not the id of streamName (expected ${derived})`);
  if (RecordWireIds.streamState.idOf(head.state) === undefined)
    throw checks.fail(`unknown state ${String(head.state)}`);
  if (RecordWireIds.storageProfile.idOf(head.profile) === undefined) {
    throw checks.fail(`profile ${String(head.profile)} is not a canonical storage profile`);
  }
  const attributes = encodeAttributes(head.attributes, checks);
  checks.natural("createdAtMillis", head.createdAtMillis);
  checks.natural("committedEndOffset", head.committedEndOffset);
  checks.natural("cumulativeSize", head.cumulativeSize);
  checks.natural("commitVersion", head.commitVersion);
  checks.natural("trimOffset", head.trimOffset);
  if (head.trimOffset > head.committedEndOffset) {
    throw checks.fail(
      `trimOffset ${String(head.trimOffset)} exceeds committedEndOffset ${String(head.committedEndOffset)}`,
    );
  }
  checks.text("lastCommitId", head.lastCommitId, true);
  const empty = head.commitVersion === 0;
  checks.require(
    (head.lastCommitId === "") === empty,
    empty ? "lastCommitId must be empty when commitVersion is 0" : "lastCommitId must be set when commitVersion > 0",
  );
  checks.require(
    (head.committedEndOffset === 0) === empty && (!empty || head.cumulativeSize === 0),
    "an empty head (commitVersion 0) must have committedEndOffset = cumulativeSize = 0, and a committed one an end > 0",
  );
  if (head.session !== undefined) {
    if (typeof head.session !== "object" || head.session === null)
      throw checks.fail("session must be an object or undefined");
    validateSession(head.session, checks);
  }
  return attributes;
}

/**
 * Codec of the StreamHead record. Enforced on encode and decode: streamId = streamIdFromName(streamName);
 * canonical profile and known state; 0 <= trimOffset <= committedEndOffset; lastCommitId === "" iff
 * commitVersion === 0 iff committedEndOffset === 0, and then cumulativeSize === 0 (cumulativeSize may stay 0
 * after commits of empty payloads); attributes ≤ 16 KiB encoded; all numbers safe integers. `decode` also
 * requires the key's stream id to equal the head's.
 */
export const streamHeadCodec: RecordCodec<StreamHead> = {
  recordType: RECORD_TYPE,
  schemaVersion: SCHEMA_VERSION,

  encode(head: StreamHead): Uint8Array {
    const checks = new RecordChecks(RECORD_TYPE);
    const attributes = validateHead(head, checks);
    return encodeRecord(HEADER, (writer) => {
      writer
        .writeString(head.streamId)
        .writeString(head.streamName)
        .writeU8(RecordWireIds.streamState.idOf(head.state) ?? 0)
        .writeU8(RecordWireIds.storageProfile.idOf(head.profile) ?? 0)
        .writeU32(attributes.length);
      for (const attribute of attributes) {
        writer.writeLengthPrefixedBytes(attribute.key).writeLengthPrefixedBytes(attribute.value);
      }
      writer
        .writeU64(head.createdAtMillis)
        .writeU64(head.committedEndOffset)
        .writeU64(head.cumulativeSize)
        .writeU64(head.commitVersion)
        .writeU64(head.trimOffset)
        .writeString(head.lastCommitId)
        .writeBoolean(head.session !== undefined);
      if (head.session !== undefined) {
        writer
          .writeString(head.session.writerId)
          .writeU64(head.session.epoch)
          .writeString(head.session.fencingToken)
          .writeU64(head.session.leaseVersion)
          .writeU64(head.session.expiresAtMillis);
      }
    });
  },

  decode(bytes: Uint8Array, key: string): StreamHead {
    const checks = new RecordChecks(RECORD_TYPE, key);
    try {
      const location = parseStreamHeadKey(key);
      const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
      const reader = new ByteReader(payload, "StreamHead payload");
      const streamId = reader.readString("streamId");
      const streamName = reader.readString("streamName");
      const stateId = reader.readU8("state");
      const state = RecordWireIds.streamState.valueOf(stateId);
      if (state === undefined) throw checks.fail(`unknown state wire id ${String(stateId)}`);
      const profileId = reader.readU8("profile");
      const profile = RecordWireIds.storageProfile.valueOf(profileId);
      if (profile === undefined) throw checks.fail(`unknown storage profile wire id ${String(profileId)}`);
      const attributeCount = reader.readU32("attributes.count");
      const entries: Array<[string, string]> = [];
      let previousKey: Uint8Array | undefined;
      for (let index = 0; index < attributeCount; index += 1) {
        const keyStart = reader.offset;
        const keyBytes = reader.readLengthPrefixedBytes(`attributes[${String(index)}].key`);
        if (previousKey !== undefined && compareBytes(previousKey, keyBytes) >= 0) {
          throw checks.fail(
            `attribute keys are not in strictly ascending UTF-8 byte order at byte offset ${String(keyStart)}`,
          );
        }
        previousKey = keyBytes;
        let attributeKey: string;
        try {
          attributeKey = decodeStrictUtf8(keyBytes, `attributes[${String(index)}].key`);
        } catch (cause) {
          throw reader.error(`attributes[${String(index)}].key`, "string is not well-formed UTF-8", keyStart, cause);
        }
        entries.push([attributeKey, reader.readString(`attributes[${String(index)}].value`)]);
      }
      const createdAtMillis = reader.readU64("createdAtMillis");
      const committedEndOffset = reader.readU64("committedEndOffset");
      const cumulativeSize = reader.readU64("cumulativeSize");
      const commitVersion = reader.readU64("commitVersion");
      const trimOffset = reader.readU64("trimOffset");
      const lastCommitId = reader.readString("lastCommitId");
      const session: AppendSession | undefined = reader.readBoolean("session.present")
        ? {
            writerId: reader.readString("session.writerId"),
            epoch: reader.readU64("session.epoch"),
            fencingToken: reader.readString("session.fencingToken"),
            leaseVersion: reader.readU64("session.leaseVersion"),
            expiresAtMillis: reader.readU64("session.expiresAtMillis"),
          }
        : undefined;
      reader.expectEnd();
      const head: StreamHead = {
        streamId,
        streamName,
        state,
        profile,
        attributes: Object.fromEntries(entries),
        createdAtMillis,
        committedEndOffset,
        cumulativeSize,
        commitVersion,
        trimOffset,
        lastCommitId,
        session,
      };
      validateHead(head, checks);
      checks.require(
        head.streamId === location.streamId,
        `streamId ${head.streamId} does not match the key's stream ${location.streamId}`,
      );
      return head;
    } catch (error) {
      return checks.wrap(error);
    }
  },
};
