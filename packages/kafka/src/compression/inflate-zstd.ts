// Inflates the zstd records section of a Kafka batch (codec 4) with fzstd (pure JS; Node 20's zlib has no zstd).
// fzstd cannot stop at a limit and allocates each frame's declared content size or window, so a first pass walks
// the frame and block headers (RFC 8878 §3.1) and refuses the payload before fzstd runs when the declared sizes,
// windows, or the block-by-block bound (raw and RLE blocks: their size; compressed blocks: at most 128 KiB and the
// window) pass the limit. Skippable frames are allowed; dictionaries are not (Kafka uses none). The optional
// content checksum is not verified (fzstd skips it).
import { decompress } from "fzstd";
import { InflateLimitError, MalformedCompressionError } from "./inflate-limit.js";

const FRAME_MAGIC = 0xfd2fb528;
const SKIPPABLE_MAGIC_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
const MAX_BLOCK_BYTES = 128 * 1024;

function fail(message: string): never {
  throw new MalformedCompressionError(`zstd: ${message}`);
}

/** Walks one frame starting at `start`; adds its bound to `totals` and returns where the next frame starts. */
function walkFrame(
  data: Uint8Array,
  view: DataView,
  start: number,
  limit: number,
  totals: { output: number; allocation: number },
): number {
  let position = start + 4;
  if (position >= data.length) fail("truncated frame header");
  const descriptor = data[position++] ?? 0;
  const contentSizeFlag = descriptor >>> 6;
  const singleSegment = (descriptor & 0x20) !== 0;
  const hasChecksum = (descriptor & 0x04) !== 0;
  if ((descriptor & 0x08) !== 0) fail("reserved frame header bit is set");
  if ((descriptor & 0x03) !== 0) fail("frames with a dictionary are not supported");
  let window = 0;
  if (!singleSegment) {
    if (position >= data.length) fail("truncated frame header");
    const windowDescriptor = data[position++] ?? 0;
    const base = 2 ** (10 + (windowDescriptor >>> 3));
    window = base + (base / 8) * (windowDescriptor & 0x07);
  }
  const contentSizeBytes = [singleSegment ? 1 : 0, 2, 4, 8][contentSizeFlag] ?? 0;
  if (data.length - position < contentSizeBytes) fail("truncated frame header");
  let contentSize: number | undefined;
  if (contentSizeBytes === 1) contentSize = data[position] ?? 0;
  else if (contentSizeBytes === 2) contentSize = view.getUint16(position, true) + 256;
  else if (contentSizeBytes === 4) contentSize = view.getUint32(position, true);
  else if (contentSizeBytes === 8) {
    const declared = view.getBigUint64(position, true);
    contentSize = declared > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(declared);
  }
  position += contentSizeBytes;
  if (singleSegment) window = contentSize ?? 0;
  if (window > limit) throw new InflateLimitError("zstd", limit, `the frame asks for a ${String(window)}-byte window`);
  if (contentSize !== undefined && contentSize > limit)
    throw new InflateLimitError("zstd", limit, `the frame declares ${String(contentSize)} bytes`);
  totals.allocation += contentSize !== undefined && contentSize > 0 ? contentSize : window;
  let frameBound = 0;
  for (let last = false; !last;) {
    if (data.length - position < 3) fail("the frame ends inside a block header");
    const blockHeader = (data[position] ?? 0) | ((data[position + 1] ?? 0) << 8) | ((data[position + 2] ?? 0) << 16);
    position += 3;
    last = (blockHeader & 1) === 1;
    const type = (blockHeader >>> 1) & 0x03;
    const size = blockHeader >>> 3;
    if (type === 3) fail("reserved block type");
    const stored = type === 1 ? 1 : size;
    if (stored > data.length - position) fail("a block overruns the payload");
    position += stored;
    frameBound += type === 2 ? Math.min(MAX_BLOCK_BYTES, window) : size;
  }
  if (hasChecksum) {
    if (data.length - position < 4) fail("the frame ends inside its checksum");
    position += 4;
  }
  totals.output += contentSize ?? frameBound;
  if (totals.output > limit || totals.allocation > limit)
    throw new InflateLimitError("zstd", limit, "by its declared sizes");
  return position;
}

/** Inflates `data` (zstd frames), refusing payloads whose declared sizes pass `limit` bytes. */
export function inflateZstd(data: Uint8Array, limit: number): Uint8Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const totals = { output: 0, allocation: 0 };
  let frames = 0;
  for (let position = 0; position < data.length;) {
    if (data.length - position < 4) fail("truncated frame magic");
    const magic = view.getUint32(position, true);
    if (magic === FRAME_MAGIC) {
      position = walkFrame(data, view, position, limit, totals);
      frames += 1;
    } else if ((magic & SKIPPABLE_MAGIC_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      if (data.length - position < 8) fail("truncated skippable frame");
      const size = view.getUint32(position + 4, true);
      if (size > data.length - position - 8) fail("a skippable frame overruns the payload");
      position += 8 + size;
    } else {
      fail("not a zstd frame (bad magic)");
    }
  }
  if (frames === 0) fail("no zstd frame");
  let output: Uint8Array;
  try {
    output = decompress(data);
  } catch (error) {
    throw new MalformedCompressionError(`zstd: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (output.length > limit) throw new InflateLimitError("zstd", limit);
  return output;
}
