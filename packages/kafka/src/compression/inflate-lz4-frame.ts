// Inflates the lz4 records section of a Kafka batch (codec 3): one LZ4 frame (magic 0x184D2204, FLG, BD,
// optional content size and dictionary id, header checksum; blocks of int32 little-endian size — high bit =
// stored uncompressed, 0 = end mark — each optionally followed by its xxHash32; optional content xxHash32).
// Kafka's Java client writes independent blocks; librdkafka may link them, so matches may reach into earlier
// output when the frame says blocks are linked.
//
// A first pass over the block headers bounds the output (declared content size, or per block: its stored size,
// or for compressed blocks the smaller of the frame's block maximum and 255 × its compressed size) and refuses
// a frame whose bound passes the limit before anything is allocated. Header, block and content checksums are
// verified, as consumers verify them. Bytes after the frame are refused. Dictionaries are not supported.
import { hash as xxh32 } from "lz4js/xxh32.js";
import { InflateLimitError, MalformedCompressionError } from "./inflate-limit.js";
import { decodeLz4Block } from "./lz4-block.js";

const FRAME_MAGIC = 0x184d2204;
const BLOCK_MAXIMUMS: Readonly<Record<number, number>> = {
  4: 64 * 1024,
  5: 256 * 1024,
  6: 1024 * 1024,
  7: 4 * 1024 * 1024,
};
const UNCOMPRESSED_BIT = 0x8000_0000;
/** No LZ4 block inflates by more than this factor (a 255-byte length extension per input byte), plus a constant. */
const MAX_EXPANSION = 255;

function fail(message: string): never {
  throw new MalformedCompressionError(`lz4: ${message}`);
}

interface FrameHeader {
  readonly linkedBlocks: boolean;
  readonly blockChecksums: boolean;
  readonly contentChecksum: boolean;
  readonly contentSize: number | undefined;
  readonly blockMaximum: number;
  /** Where the first block header starts. */
  readonly blocksStart: number;
}

function readFrameHeader(data: Uint8Array, view: DataView, limit: number): FrameHeader {
  if (data.length < 7 || view.getUint32(0, true) !== FRAME_MAGIC) fail("not an LZ4 frame (bad magic)");
  const flags = data[4] ?? 0;
  const blockDescriptor = data[5] ?? 0;
  if (flags >>> 6 !== 1) fail(`unsupported frame version ${String(flags >>> 6)}`);
  if ((flags & 0x02) !== 0 || (blockDescriptor & 0x8f) !== 0) fail("reserved frame descriptor bits are set");
  if ((flags & 0x01) !== 0) fail("frames with a dictionary are not supported");
  const blockMaximum = BLOCK_MAXIMUMS[(blockDescriptor >>> 4) & 0x07];
  if (blockMaximum === undefined) fail(`invalid block maximum size code ${String((blockDescriptor >>> 4) & 0x07)}`);
  let position = 6;
  let contentSize: number | undefined;
  if ((flags & 0x08) !== 0) {
    if (data.length < position + 9) fail("truncated frame descriptor");
    const declared = view.getBigUint64(position, true);
    if (declared > BigInt(limit))
      throw new InflateLimitError("lz4", limit, `the frame declares ${declared.toString()} bytes`);
    contentSize = Number(declared);
    position += 8;
  }
  const headerChecksum = (xxh32(0, data, 4, position - 4) >>> 8) & 0xff;
  if (data[position] !== headerChecksum) fail("frame header checksum mismatch");
  position += 1;
  return {
    linkedBlocks: (flags & 0x20) === 0,
    blockChecksums: (flags & 0x10) !== 0,
    contentChecksum: (flags & 0x04) !== 0,
    contentSize,
    blockMaximum,
    blocksStart: position,
  };
}

/** Walks the block headers; returns an upper bound of the inflated size. */
function boundFrame(data: Uint8Array, view: DataView, header: FrameHeader, limit: number): number {
  let position = header.blocksStart;
  let bound = 0;
  for (;;) {
    if (data.length - position < 4) fail("the frame ends before its end mark");
    const word = view.getUint32(position, true);
    position += 4;
    if (word === 0) break;
    const size = word & ~UNCOMPRESSED_BIT;
    if (size > header.blockMaximum)
      fail(`a block of ${String(size)} bytes exceeds the frame's maximum of ${String(header.blockMaximum)}`);
    const stored = size + (header.blockChecksums ? 4 : 0);
    if (stored > data.length - position) fail("a block overruns the frame");
    position += stored;
    bound += (word & UNCOMPRESSED_BIT) !== 0 ? size : Math.min(header.blockMaximum, size * MAX_EXPANSION + 16);
    if (bound > limit && header.contentSize === undefined)
      throw new InflateLimitError("lz4", limit, "by the sizes of its blocks");
  }
  if (header.contentChecksum) position += 4;
  if (position > data.length) fail("the frame ends inside its content checksum");
  if (position !== data.length) fail(`${String(data.length - position)} bytes follow the frame`);
  return header.contentSize ?? bound;
}

/** Inflates `data` (one LZ4 frame), refusing output past `limit` bytes. The result is a new buffer. */
export function inflateLz4Frame(data: Uint8Array, limit: number): Uint8Array {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const header = readFrameHeader(data, view, limit);
  const bound = boundFrame(data, view, header, limit);
  const output = new Uint8Array(bound);
  let position = header.blocksStart;
  let written = 0;
  for (;;) {
    const word = view.getUint32(position, true);
    position += 4;
    if (word === 0) break;
    const size = word & ~UNCOMPRESSED_BIT;
    if (header.blockChecksums && xxh32(0, data, position, size) !== view.getUint32(position + size, true))
      fail("block checksum mismatch");
    const room = Math.min(output.length, written + header.blockMaximum);
    if ((word & UNCOMPRESSED_BIT) !== 0) {
      if (size > room - written) fail("the frame inflates past its declared content size");
      output.set(data.subarray(position, position + size), written);
      written += size;
    } else {
      written = decodeLz4Block(
        data,
        position,
        position + size,
        output,
        written,
        room,
        header.linkedBlocks ? 0 : written,
      );
    }
    position += size + (header.blockChecksums ? 4 : 0);
  }
  if (header.contentSize !== undefined && written !== header.contentSize) {
    fail(`the frame declares ${String(header.contentSize)} bytes but holds ${String(written)}`);
  }
  if (header.contentChecksum && xxh32(0, output, 0, written) !== view.getUint32(position, true))
    fail("content checksum mismatch");
  return written === output.length ? output : output.subarray(0, written);
}
