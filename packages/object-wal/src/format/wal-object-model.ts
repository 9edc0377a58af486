// Value types of the NRS1 WAL object format: what the encoder takes, what the manifest describes, and what the
// decoders return. Decoded payloads are views into the decoded buffer: copy before retaining.
import type { StoredEntry } from "@nereus/core";

/** One entry to write: opaque bytes that consume `recordCount` offsets (1 for opaque entries). */
interface WalEntryInput {
  readonly recordCount: number;
  readonly payload: Uint8Array;
  /** `crc32c(payload)` when the writer already has it: the encoder combines it instead of reading the payload. */
  readonly payloadCrc32c?: number;
}

/** One stream's part of an object. At most one slice per stream per object. */
export interface WalSliceInput {
  readonly streamId: string;
  /** The offset the writer expects the slice's first entry to get (the append's `expectedStartOffset`). */
  readonly firstExpectedOffset: number;
  /** At least one entry. */
  readonly entries: readonly WalEntryInput[];
}

/** Everything one WAL object holds. */
export interface WalObjectInput {
  readonly writerId: string;
  /** Deterministic physical attempt identity (the object key's id); slice ids derive from it. */
  readonly attemptKey: string;
  readonly createdAtMillis: number;
  /** At least one; any order (the encoder sorts by stream id). */
  readonly slices: readonly WalSliceInput[];
}

/** The decoded object header. */
export interface WalObjectHeader {
  readonly formatMajor: number;
  readonly formatMinor: number;
  readonly writerId: string;
  readonly attemptKey: string;
  readonly createdAtMillis: number;
  readonly sliceCount: number;
}

/**
 * Where one slice lives and what it holds: enough to fetch it with one ranged GET and verify it alone.
 * Invariant: `checksum` is the CRC32C of the slice's first `length - 4` bytes, also stored in its last 4 bytes.
 */
export interface WalSliceDescriptor {
  /** Position in the manifest (slices are ordered by stream id, UTF-8 byte order). */
  readonly ordinal: number;
  readonly streamId: string;
  readonly sliceId: string;
  readonly firstExpectedOffset: number;
  readonly entryCount: number;
  /** Sum of the entries' record counts. */
  readonly recordCount: number;
  /** Sum of the entries' payload lengths. */
  readonly payloadBytes: number;
  /** Byte offset of the slice in the object. */
  readonly offset: number;
  /** Byte length of the slice, trailing checksum included. */
  readonly length: number;
  readonly checksum: number;
}

/** The result of `encodeWalObject`. */
export interface EncodedWalObject {
  readonly bytes: Uint8Array;
  readonly header: WalObjectHeader;
  /** One descriptor per slice, in object order. */
  readonly manifest: readonly WalSliceDescriptor[];
  /** CRC32C of every byte before the footer's objectChecksum field. */
  readonly objectChecksum: number;
  /** CRC32C of all of `bytes` (what an object store checksums). */
  readonly storageChecksum: number;
}

/** One decoded slice. Entry payloads are views into the decoded bytes. */
export interface DecodedWalSlice {
  readonly streamId: string;
  readonly sliceId: string;
  readonly firstExpectedOffset: number;
  readonly entries: readonly StoredEntry[];
}

/** The result of `decodeWalObject`. */
export interface DecodedWalObject {
  readonly header: WalObjectHeader;
  readonly manifest: readonly WalSliceDescriptor[];
  /** In manifest order. */
  readonly slices: readonly DecodedWalSlice[];
  readonly objectChecksum: number;
}

/** The fixed-size footer: where the manifest is and the whole-object checksum. */
export interface WalObjectFooter {
  readonly manifestOffset: number;
  readonly manifestLength: number;
  readonly manifestChecksum: number;
  readonly objectChecksum: number;
}
