// Builds, uploads and verifies one generation object (docs/architecture.md §6.1 "build", §8.4): the exact entries of the task's source
// ranges, read through the exact-source readers (never the ordinary read path, which could pick another
// generation), checked against each source's index record, written as a single-slice NRS1 object whose slice
// starts at the range's first offset. The key is content-addressed plus the claim token
//   {cluster}/generations/v1/{sid}/{start19}-{end19}/{contentSha256}-{claimToken}.nrs
// so two claims never write the same key and the generation number is never part of bytes or key. Verification has
// two halves, both required before anything names the output: (1) the encoded bytes are decoded strictly and
// compared entry by entry (bytes and record counts) with the sources — offsets, entry boundaries and bytes never
// change; (2) the stored object is proven to be exactly those bytes: by the store's own record (HEAD reports the
// same size and the CRC32C the store computed over the body it received) when the store reports a CRC32C, else by
// reading the whole object back and comparing it byte for byte. A task resumed without its encoded bytes reads the
// object back and compares it with the sources. Buffers: source payloads are retained until encoded; the encoded
// bytes until verified.
import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import {
  ErrorCode,
  NereusError,
  type ObjectSliceTarget,
  type ObjectStore,
  type ReadTarget,
  type StoredEntry,
  type WalReader,
} from "@nereus/core";
import { encodeKeyComponent, pad19 } from "@nereus/core/internal";
import { decodeWalObject } from "../format/decode-wal-object.js";
import { encodeWalObject } from "../format/encode-wal-object.js";
import { WAL_OBJECT_LAYOUT } from "../format/wal-object-layout.js";
import { decodeWalObjectFooter } from "../format/decode-wal-object-footer.js";
import { objectKeyHash } from "../roots/physical-object-keys.js";
import type { EncodedWalObject, WalSliceDescriptor } from "../format/wal-object-model.js";
import type { PhysicalObjectRoot } from "../roots/physical-object-records.js";
import { uploadImmutableObject } from "../writer/upload-immutable-object.js";
import type { MaterializationSource } from "./plan-materialization.js";

/** Readers of source targets, by target type. */
export type SourceReaders = (target: ReadTarget) => WalReader | undefined;

/** Source reads in flight at once (sources of one task live in different WAL objects). */
const SOURCE_READ_CONCURRENCY = 8;

/** Reads one source's entries and checks them against its index record. */
async function readSourceEntries(
  readers: SourceReaders,
  source: MaterializationSource,
  signal?: AbortSignal,
): Promise<readonly StoredEntry[]> {
  const reader = readers(source.readTarget);
  if (reader === undefined) {
    throw new NereusError(ErrorCode.UNSUPPORTED_READ_TARGET, `no source reader for ${source.readTarget.type} targets`, {
      retryable: false,
    });
  }
  const stored = await reader.readEntries(source.readTarget, { signal });
  const counts = stored.map((entry) => entry.recordCount);
  if (
    counts.length !== source.entryRecordCounts.length ||
    counts.some((count, index) => count !== source.entryRecordCounts[index])
  ) {
    throw new NereusError(
      ErrorCode.PRIMARY_WAL_CHECKSUM_MISMATCH,
      `source [${String(source.offsetStart)}, ${String(source.offsetEnd)}) does not match its index record`,
      { retryable: false },
    );
  }
  return stored;
}

/**
 * Reads every source (at most 8 at once), returning their entries in source order. A failing source rejects with
 * its error and `details.sourceIndex` (the first failure wins; the other reads are still awaited). `beforeEach`
 * runs before each source's read (a background task waits there while foreground traffic is busy).
 */
export async function readAllSources(
  readers: SourceReaders,
  sources: readonly MaterializationSource[],
  signal?: AbortSignal,
  beforeEach?: () => Promise<void>,
): Promise<StoredEntry[]> {
  const results: Array<readonly StoredEntry[]> = new Array<readonly StoredEntry[]>(sources.length);
  let failure: { readonly index: number; readonly error: unknown } | undefined;
  let next = 0;
  const lanes = Array.from({ length: Math.min(SOURCE_READ_CONCURRENCY, sources.length) }, async () => {
    for (let index = next++; index < sources.length && failure === undefined; index = next++) {
      try {
        await beforeEach?.();
        results[index] = await readSourceEntries(readers, sources[index] as MaterializationSource, signal);
      } catch (error) {
        failure ??= { index, error };
      }
    }
  });
  await Promise.all(lanes);
  if (failure !== undefined) throw new SourceReadError(failure.index, failure.error);
  return results.flat();
}

/** A source of a task could not be read; `cause` is the reader's error. */
export class SourceReadError extends Error {
  readonly sourceIndex: number;

  constructor(sourceIndex: number, cause: unknown) {
    super(`materialization source ${String(sourceIndex)} could not be read: ${String(cause)}`, { cause });
    this.name = "SourceReadError";
    this.sourceIndex = sourceIndex;
  }
}

export interface GenerationObjectInput {
  readonly store: ObjectStore;
  readonly cluster: string;
  readonly streamId: string;
  readonly offsetStart: number;
  readonly offsetEnd: number;
  readonly entries: readonly StoredEntry[];
  readonly workerId: string;
  readonly processRunId: string;
  readonly claimToken: string;
  readonly createdAtMillis: number;
  readonly orphanGraceMs: number;
  readonly signal: AbortSignal;
}

export interface EncodedGenerationObject {
  readonly objectKey: string;
  readonly bytes: Uint8Array;
  readonly target: ObjectSliceTarget;
  readonly root: PhysicalObjectRoot;
  readonly logicalBytes: number;
}

/** Encodes the output object of a task (pure; hashes on the calling thread). */
export function encodeGenerationObject(
  input: Omit<GenerationObjectInput, "store" | "signal">,
): EncodedGenerationObject {
  // SHA-256 over the concatenated payloads, fed entry by entry (no concatenated copy).
  const hasher = createHash("sha256");
  for (const entry of input.entries) hasher.update(entry.payload);
  return describeGenerationObject(input, encodeOutput(input), hasher.digest("hex"));
}

/**
 * Encodes the output object of a task like `encodeGenerationObject` (same bytes, same key), hashing the payloads in
 * steps of at most `HASH_STEP_BYTES` and awaiting `betweenSteps` (default: one turn of the event loop) between steps,
 * so foreground work (appends) is not held up for the whole hash. (WebCrypto's digest is no help on Node 20: it
 * copies the input on the calling thread.)
 */
export async function encodeGenerationObjectYielding(
  input: Omit<GenerationObjectInput, "store" | "signal">,
  betweenSteps: () => Promise<void> = () => nextTurn(),
): Promise<EncodedGenerationObject> {
  const hasher = createHash("sha256");
  let sinceYield = 0;
  for (const entry of input.entries) {
    for (let at = 0; at < entry.payload.length;) {
      const step = entry.payload.subarray(at, at + HASH_STEP_BYTES - sinceYield);
      hasher.update(step);
      at += step.length;
      sinceYield += step.length;
      if (sinceYield >= HASH_STEP_BYTES) {
        sinceYield = 0;
        await betweenSteps();
      }
    }
  }
  const contentSha = hasher.digest("hex");
  return describeGenerationObject(input, encodeOutput(input), contentSha);
}

/** Payload bytes hashed between two yields of `encodeGenerationObjectYielding`. */
const HASH_STEP_BYTES = 1024 * 1024;

function encodeOutput(input: Omit<GenerationObjectInput, "store" | "signal">): EncodedWalObject {
  const encoded = encodeWalObject({
    writerId: input.workerId,
    attemptKey: objectIdOf(input.claimToken),
    createdAtMillis: input.createdAtMillis,
    slices: [{ streamId: input.streamId, firstExpectedOffset: input.offsetStart, entries: input.entries }],
  });
  const slice = encoded.manifest[0];
  if (
    encoded.manifest.length !== 1 ||
    slice === undefined ||
    slice.recordCount !== input.offsetEnd - input.offsetStart
  ) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, "generation object entries do not cover the task range exactly", {
      retryable: false,
    });
  }
  return encoded;
}

const objectIdOf = (claimToken: string): string => `go-${encodeKeyComponent(claimToken)}`;

function describeGenerationObject(
  input: Omit<GenerationObjectInput, "store" | "signal">,
  encoded: EncodedWalObject,
  contentSha: string,
): EncodedGenerationObject {
  const slice = encoded.manifest[0] as WalSliceDescriptor;
  const objectId = objectIdOf(input.claimToken);
  const objectKey =
    `${encodeKeyComponent(input.cluster)}/generations/v1/${encodeKeyComponent(input.streamId)}/` +
    `${pad19(input.offsetStart)}-${pad19(input.offsetEnd)}/${contentSha}-${encodeKeyComponent(input.claimToken)}.nrs`;
  const footer = decodeWalObjectFooter(
    encoded.bytes.subarray(encoded.bytes.length - WAL_OBJECT_LAYOUT.footerBytes),
    encoded.bytes.length,
  );
  return {
    objectKey,
    bytes: encoded.bytes,
    logicalBytes: slice.payloadBytes,
    target: {
      type: "OBJECT_SLICE",
      version: 1,
      objectKey,
      objectType: "STREAM_GENERATION_OBJECT",
      sliceOffset: slice.offset,
      sliceLength: slice.length,
      sliceChecksum: slice.checksum,
      entryCount: slice.entryCount,
    },
    root: {
      objectKey,
      objectKeyHash: objectKeyHash(objectKey),
      objectId,
      kind: "STREAM_GENERATION",
      lifecycle: "ACTIVE",
      lifecycleEpoch: 0,
      writerId: input.workerId,
      processRunId: input.processRunId,
      createdAtMillis: input.createdAtMillis,
      orphanNotBeforeMillis: input.createdAtMillis + input.orphanGraceMs,
      objectLength: encoded.bytes.length,
      storageChecksum: encoded.storageChecksum,
      formatMajor: encoded.header.formatMajor,
      formatMinor: encoded.header.formatMinor,
      sliceCount: 1,
      manifestOffset: footer.manifestOffset,
      manifestLength: footer.manifestLength,
      manifestChecksum: footer.manifestChecksum,
    },
  };
}

/** Uploads `encoded` (create-only; a lost response resolved by read-back). */
export async function uploadGenerationObject(
  store: ObjectStore,
  encoded: EncodedGenerationObject,
  signal: AbortSignal,
): Promise<void> {
  await uploadImmutableObject(store, encoded.objectKey, encoded.bytes, { attempts: 3, backoffMs: 50, signal });
}

/** How the stored output was proven identical to the encoded bytes. */
export type OutputProof = "STORE_CHECKSUM" | "READ_BACK";

/**
 * Verifies a freshly uploaded output (both halves, see the module comment): `encoded`'s bytes hold exactly
 * `expected`, and the object stored under its key is exactly those bytes — proven by HEAD (size + the store's
 * CRC32C) when the store reports a CRC32C, else by a whole read-back compared byte for byte. Throws
 * OBJECT_CHECKSUM_MISMATCH (not retryable) on any difference, OBJECT_NOT_FOUND when the object is gone.
 */
export async function verifyUploadedGenerationObject(
  store: ObjectStore,
  encoded: EncodedGenerationObject,
  streamId: string,
  offsetStart: number,
  expected: readonly StoredEntry[],
  signal?: AbortSignal,
): Promise<OutputProof> {
  verifyGenerationBytes(encoded.bytes, encoded.target, streamId, offsetStart, expected);
  const info = await store.head(encoded.objectKey, { signal });
  if (info === undefined) {
    throw new NereusError(
      ErrorCode.OBJECT_NOT_FOUND,
      `generation object ${encoded.objectKey} is missing right after its upload`,
      {
        retryable: false,
        details: { key: encoded.objectKey },
      },
    );
  }
  if (info.size !== encoded.bytes.length)
    throw mismatch(`the stored object has ${String(info.size)} byte(s), ${String(encoded.bytes.length)} were encoded`);
  if (info.crc32c !== undefined) {
    if (info.crc32c >>> 0 !== encoded.root.storageChecksum)
      throw mismatch("the stored CRC32C differs from the encoded bytes'");
    return "STORE_CHECKSUM";
  }
  const stored = await store.get(encoded.objectKey, undefined, { signal });
  if (!sameBytes(stored, encoded.bytes)) throw mismatch("the stored object differs from the encoded bytes");
  return "READ_BACK";
}

/**
 * Reads `target`'s whole object back, decodes it strictly and requires exactly `expected` (same entries, same
 * bytes, same record counts, slice where the target says). Throws OBJECT_CHECKSUM_MISMATCH-class errors otherwise.
 */
export async function verifyGenerationObject(
  store: ObjectStore,
  target: ReadTarget,
  streamId: string,
  offsetStart: number,
  expected: readonly StoredEntry[],
  signal?: AbortSignal,
): Promise<void> {
  if (target.type !== "OBJECT_SLICE") throw mismatch("the output is not an object slice");
  verifyGenerationBytes(
    await store.get(target.objectKey, undefined, { signal }),
    target,
    streamId,
    offsetStart,
    expected,
  );
}

/** Decodes `bytes` strictly as `target`'s object and requires exactly `expected` (no I/O). */
function verifyGenerationBytes(
  bytes: Uint8Array,
  target: ReadTarget,
  streamId: string,
  offsetStart: number,
  expected: readonly StoredEntry[],
): void {
  if (target.type !== "OBJECT_SLICE") throw mismatch("the output is not an object slice");
  const decoded = decodeWalObject(bytes);
  const descriptor = decoded.manifest[0];
  const slice = decoded.slices[0];
  if (decoded.slices.length !== 1 || descriptor === undefined || slice === undefined)
    throw mismatch("a generation object holds exactly one slice");
  if (
    slice.streamId !== streamId ||
    slice.firstExpectedOffset !== offsetStart ||
    descriptor.offset !== target.sliceOffset ||
    descriptor.length !== target.sliceLength ||
    descriptor.checksum !== target.sliceChecksum ||
    slice.entries.length !== expected.length
  ) {
    throw mismatch("the object does not match its target");
  }
  slice.entries.forEach((entry, index) => {
    const source = expected[index];
    if (source === undefined || source.recordCount !== entry.recordCount || !sameBytes(source.payload, entry.payload)) {
      throw mismatch(`entry ${String(index)} differs from its source`);
    }
  });
}

/** Byte equality through the native comparison (the payloads are megabytes). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return (
    a.byteLength === b.byteLength &&
    Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength))
  );
}

function mismatch(message: string): NereusError {
  return new NereusError(ErrorCode.OBJECT_CHECKSUM_MISMATCH, `generation object verification failed: ${message}`, {
    retryable: false,
  });
}
