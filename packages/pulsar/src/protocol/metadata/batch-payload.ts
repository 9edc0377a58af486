// The payload of a batch entry: for each message `[u32 metadataSize][SingleMessageMetadata][payloadSize bytes]`,
// the whole sequence compressed as one blob (MessageMetadata.compression) and possibly encrypted. `readBatch` walks
// an uncompressed, unencrypted batch to reach each message's key and properties without copying; for a compressed
// or encrypted one only the message count of the entry's metadata is known. Returned payloads are views of the
// input.
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { decodeError, invalidValue } from "../wire/codec-errors.js";
import { CompressionType, type MessageMetadata } from "./message-metadata.js";
import { type SingleMessageMetadata, SingleMessageMetadataCodec } from "./single-message-metadata.js";

/** One message of a batch: its metadata and a view of its bytes. */
export interface BatchMessage {
  readonly metadata: SingleMessageMetadata;
  readonly payload: Uint8Array;
}

/** What an entry's payload holds, as far as it can be known without decompressing or decrypting. */
export type BatchContents =
  /** Not a batch: the payload is the one message's bytes. */
  | { readonly kind: "single" }
  /** An uncompressed, unencrypted batch, walked message by message. */
  | { readonly kind: "batch"; readonly count: number; readonly messages: readonly BatchMessage[] }
  /** A batch whose payload cannot be walked here: only the count from its metadata is known. */
  | { readonly kind: "opaque-batch"; readonly count: number; readonly reason: "compressed" | "encrypted" };

const SIZE_BYTES = 4;

/**
 * The messages of the entry with `metadata` and `payload`. Throws DECODE_ERROR when an uncompressed batch does not
 * hold exactly `numMessagesInBatch` well-formed messages (`offset`: the payload's position, for errors).
 */
export function readBatch(metadata: MessageMetadata, payload: Uint8Array, offset = 0): BatchContents {
  const count = metadata.numMessagesInBatch;
  if (count === undefined) return { kind: "single" };
  if (count < 0) throw decodeError("batch payload", offset, `negative message count ${String(count)}`);
  if ((metadata.encryptionKeys?.length ?? 0) > 0) return { kind: "opaque-batch", count, reason: "encrypted" };
  if ((metadata.compression ?? CompressionType.NONE) !== CompressionType.NONE) {
    return { kind: "opaque-batch", count, reason: "compressed" };
  }
  return { kind: "batch", count, messages: walkBatch(payload, count, offset) };
}

function walkBatch(payload: Uint8Array, count: number, offset: number): BatchMessage[] {
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const messages: BatchMessage[] = [];
  let at = 0;
  for (let index = 0; index < count; index += 1) {
    const what = `batch message ${String(index)} of ${String(count)}`;
    if (payload.length - at < SIZE_BYTES) throw decodeError(what, offset + at, "truncated before its metadata size");
    const metadataSize = view.getUint32(at);
    at += SIZE_BYTES;
    if (metadataSize > payload.length - at) {
      throw decodeError(
        what,
        offset + at - SIZE_BYTES,
        `metadata size ${String(metadataSize)} exceeds the ${String(payload.length - at)} bytes left`,
      );
    }
    const metadata = SingleMessageMetadataCodec.decode(payload.subarray(at, at + metadataSize), offset + at);
    at += metadataSize;
    if (metadata.payloadSize < 0 || metadata.payloadSize > payload.length - at) {
      throw decodeError(
        what,
        offset + at,
        `payload size ${String(metadata.payloadSize)} exceeds the ${String(payload.length - at)} bytes left`,
      );
    }
    messages.push({ metadata, payload: payload.subarray(at, at + metadata.payloadSize) });
    at += metadata.payloadSize;
  }
  if (at !== payload.length) {
    throw decodeError(
      "batch payload",
      offset + at,
      `${String(payload.length - at)} byte(s) after the last of ${String(count)} messages`,
    );
  }
  return messages;
}

/** A message to put in a batch; `payloadSize` is taken from `payload`. */
export interface BatchMessageInput {
  readonly metadata?: Omit<SingleMessageMetadata, "payloadSize">;
  readonly payload: Uint8Array;
}

/** The uncompressed batch payload of `messages` (its entry's metadata sets `numMessagesInBatch` to their count). */
export function encodeBatchPayload(messages: readonly BatchMessageInput[]): Uint8Array {
  const writer = new BinaryWriter();
  const sizeSlot = new Uint8Array(SIZE_BYTES);
  for (const [index, { metadata, payload }] of messages.entries()) {
    if (!(payload instanceof Uint8Array))
      throw invalidValue(`batch message ${String(index)}`, "bytes", payload, "not a Uint8Array");
    const encoded = SingleMessageMetadataCodec.encode({ ...metadata, payloadSize: payload.length });
    new DataView(sizeSlot.buffer).setUint32(0, encoded.length);
    writer.raw(sizeSlot).raw(encoded).raw(payload);
  }
  return writer.finish();
}
