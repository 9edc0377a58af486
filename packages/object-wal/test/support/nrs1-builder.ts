// Test-only, independent writer of NRS1 bytes from explicit field values (written from
// docs/wal-object-format.md with plain Buffers, not with the production encoder). Every field can be overridden,
// and checksums are computed over whatever was written, so tests can build objects that are CRC-valid but
// structurally wrong, and cross-check the production encoder byte for byte.
import { crc32c } from "@nereus/core";

export interface RawEntry {
  readonly recordCount: number;
  readonly payload: Uint8Array;
}

export interface RawIndexItem {
  readonly recordCount: number;
  readonly payloadOffset: number;
  readonly payloadLength: number;
}

export interface RawSlice {
  readonly streamId: string;
  readonly sliceId: string;
  readonly firstExpectedOffset: number;
  readonly entries: readonly RawEntry[];
  readonly magic?: string;
  readonly entryCount?: number;
  readonly payloadLength?: number;
  readonly index?: readonly RawIndexItem[];
  /** Replaces the computed slice checksum. */
  readonly checksum?: number;
}

export interface RawDescriptor {
  ordinal: number;
  streamId: string;
  sliceId: string;
  firstExpectedOffset: number;
  entryCount: number;
  recordCount: number;
  payloadBytes: number;
  offset: number;
  length: number;
  checksum: number;
}

export interface RawObject {
  readonly writerId: string;
  readonly attemptKey: string;
  readonly createdAtMillis: number;
  readonly slices: readonly RawSlice[];
  readonly formatMajor?: number;
  readonly formatMinor?: number;
  readonly flags?: number;
  readonly sliceCount?: number;
  /** Edits the descriptors computed from the slices before the manifest is written. */
  readonly editManifest?: (descriptors: RawDescriptor[]) => void;
  /** Bytes written between the last slice and the manifest. */
  readonly gapBeforeManifest?: Uint8Array;
}

const u16 = (value: number): Buffer => {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(value);
  return out;
};
const u32 = (value: number): Buffer => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value >>> 0);
  return out;
};
const u64 = (value: number): Buffer => {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(value));
  return out;
};
const str = (value: string): Buffer => {
  const bytes = Buffer.from(value, "utf8");
  return Buffer.concat([u32(bytes.length), bytes]);
};

export function buildSlice(slice: RawSlice): Buffer {
  const payloads = slice.entries.map((entry) => Buffer.from(entry.payload));
  let running = 0;
  const derivedIndex = slice.entries.map((entry) => {
    const item = { recordCount: entry.recordCount, payloadOffset: running, payloadLength: entry.payload.length };
    running += entry.payload.length;
    return item;
  });
  const body = Buffer.concat([
    Buffer.from(slice.magic ?? "NRSL", "latin1"),
    str(slice.streamId),
    str(slice.sliceId),
    u64(slice.firstExpectedOffset),
    u32(slice.entryCount ?? slice.entries.length),
    u32(slice.payloadLength ?? running),
    ...(slice.index ?? derivedIndex).flatMap((item) => [
      u32(item.recordCount),
      u32(item.payloadOffset),
      u32(item.payloadLength),
    ]),
    ...payloads,
  ]);
  return Buffer.concat([body, u32(slice.checksum ?? crc32c(body))]);
}

export function buildNrs1(raw: RawObject): Uint8Array {
  const header = Buffer.concat([
    Buffer.from("NRS1", "latin1"),
    u16(raw.formatMajor ?? 1),
    u16(raw.formatMinor ?? 0),
    u32(raw.flags ?? 0),
    str(raw.writerId),
    str(raw.attemptKey),
    u64(raw.createdAtMillis),
    u32(raw.sliceCount ?? raw.slices.length),
  ]);
  let position = header.length;
  const sliceBytes: Buffer[] = [];
  const descriptors: RawDescriptor[] = raw.slices.map((slice, ordinal) => {
    const bytes = buildSlice(slice);
    sliceBytes.push(bytes);
    const descriptor: RawDescriptor = {
      ordinal,
      streamId: slice.streamId,
      sliceId: slice.sliceId,
      firstExpectedOffset: slice.firstExpectedOffset,
      entryCount: slice.entries.length,
      recordCount: slice.entries.reduce((sum, entry) => sum + entry.recordCount, 0),
      payloadBytes: slice.entries.reduce((sum, entry) => sum + entry.payload.length, 0),
      offset: position,
      length: bytes.length,
      checksum: bytes.readUInt32BE(bytes.length - 4),
    };
    position += bytes.length;
    return descriptor;
  });
  raw.editManifest?.(descriptors);
  const gap = Buffer.from(raw.gapBeforeManifest ?? new Uint8Array(0));
  const manifest = Buffer.concat([
    Buffer.from("NRSM", "latin1"),
    u32(descriptors.length),
    ...descriptors.flatMap((descriptor) => [
      u32(descriptor.ordinal),
      str(descriptor.streamId),
      str(descriptor.sliceId),
      u64(descriptor.firstExpectedOffset),
      u32(descriptor.entryCount),
      u64(descriptor.recordCount),
      u64(descriptor.payloadBytes),
      u64(descriptor.offset),
      u32(descriptor.length),
      u32(descriptor.checksum),
    ]),
  ]);
  const manifestOffset = position + gap.length;
  const beforeChecksum = Buffer.concat([
    header,
    ...sliceBytes,
    gap,
    manifest,
    u64(manifestOffset),
    u32(manifest.length),
    u32(crc32c(manifest)),
  ]);
  return new Uint8Array(Buffer.concat([beforeChecksum, u32(crc32c(beforeChecksum)), Buffer.from("NRS1", "latin1")]));
}
