// The sticky key of an entry, which Key_Shared subscriptions hash to pick a consumer, chosen as Pulsar's broker
// does: for a batch whose payload can be walked (uncompressed, unencrypted), the key of its first message; else the
// entry's ordering key, else its partition key (base64-decoded when flagged so, UTF-8 bytes otherwise); else none
// (the hash then uses the bytes of "NONE_KEY"). Only the first message's metadata is decoded. Returned bytes may be
// views of the entry.
import { CompressionType } from "../protocol/index.js";
import { SingleMessageMetadataCodec } from "../protocol/metadata/single-message-metadata.js";
import type { EntryMetadata } from "./entry-metadata.js";

const SIZE_BYTES = 4;
const encoder = new TextEncoder();

interface KeyFields {
  readonly orderingKey?: Uint8Array;
  readonly partitionKey?: string;
  readonly partitionKeyB64Encoded?: boolean;
}

function keyOf(fields: KeyFields): Uint8Array | undefined {
  if (fields.orderingKey !== undefined) return fields.orderingKey;
  if (fields.partitionKey === undefined) return undefined;
  if (fields.partitionKeyB64Encoded === true) return new Uint8Array(Buffer.from(fields.partitionKey, "base64"));
  return encoder.encode(fields.partitionKey);
}

/** The first message's key fields of a walkable batch, or undefined (not a batch, opaque, or malformed). */
function firstMessageKey(entry: Uint8Array, described: EntryMetadata): Uint8Array | undefined {
  const { metadata } = described;
  if (!described.isBatch || described.numberOfMessages < 1 || described.isEncrypted) return undefined;
  if ((metadata.compression ?? CompressionType.NONE) !== CompressionType.NONE) return undefined;
  const at = described.payloadOffset;
  if (entry.length - at < SIZE_BYTES) return undefined;
  const size = new DataView(entry.buffer, entry.byteOffset + at, SIZE_BYTES).getUint32(0);
  if (size > entry.length - at - SIZE_BYTES) return undefined;
  try {
    return keyOf(SingleMessageMetadataCodec.decode(entry.subarray(at + SIZE_BYTES, at + SIZE_BYTES + size)));
  } catch {
    return undefined;
  }
}

/**
 * The sticky key of `entry`, whose metadata `described` is (from `parseEntryMetadata` or `describeEntry`), or
 * undefined when it carries no key.
 */
export function stickyKeyOf(entry: Uint8Array, described: EntryMetadata): Uint8Array | undefined {
  return firstMessageKey(entry, described) ?? keyOf(described.metadata);
}
