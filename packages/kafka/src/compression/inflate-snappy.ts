// Inflates the snappy records section of a Kafka batch (codec 2). Two framings reach a broker: the Java client
// writes xerial snappy-java's stream (a 16-byte header — magic 0x82 "SNAPPY" 0, version, compatible version —
// then chunks of int32 big-endian length + one raw snappy block), librdkafka and kafkajs send one raw snappy
// block. Like Kafka, a payload that does not open with the xerial magic is read as one raw block.
//
// Raw blocks declare their inflated length up front; it is checked against what is left of the limit before
// anything is allocated, so a bomb is refused without inflating it (snappy-block.ts).
import { MalformedCompressionError } from "./inflate-limit.js";
import { decodeSnappyBlock } from "./snappy-block.js";

const XERIAL_MAGIC = [0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00] as const;
const XERIAL_HEADER_BYTES = 16;

function hasXerialHeader(data: Uint8Array): boolean {
  if (data.length < XERIAL_HEADER_BYTES) return false;
  return XERIAL_MAGIC.every((byte, index) => data[index] === byte);
}

/** Inflates `data` (xerial-framed or raw snappy), refusing output past `limit` bytes. */
export function inflateSnappy(data: Uint8Array, limit: number): Uint8Array {
  if (!hasXerialHeader(data)) return decodeSnappyBlock(data, limit, limit);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const blocks: Uint8Array[] = [];
  let total = 0;
  let position = XERIAL_HEADER_BYTES;
  while (position < data.length) {
    if (data.length - position < 4) throw new MalformedCompressionError("snappy: truncated xerial chunk length");
    const chunkLength = view.getInt32(position);
    position += 4;
    if (chunkLength < 0 || chunkLength > data.length - position) {
      throw new MalformedCompressionError(
        `snappy: xerial chunk of ${String(chunkLength)} bytes overruns the ${String(data.length - position)} bytes left`,
      );
    }
    const block = decodeSnappyBlock(data.subarray(position, position + chunkLength), limit - total, limit);
    position += chunkLength;
    blocks.push(block);
    total += block.length;
  }
  if (blocks.length === 1 && blocks[0] !== undefined) return blocks[0];
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const block of blocks) {
    joined.set(block, offset);
    offset += block.length;
  }
  return joined;
}
