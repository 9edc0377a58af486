// Builds, uploads and verifies one generation object (digest §3.9 "Worker"): the exact entries of the task's source
// ranges, read through the exact-source readers (never the ordinary read path, which could pick another
// generation), checked against each source's index record, written as a single-slice NRS1 object whose slice
// starts at the range's first offset. The key is content-addressed plus the claim token
//   {cluster}/generations/v1/{sid}/{start19}-{end19}/{contentSha256}-{claimToken}.nrs
// so two claims never write the same key and the generation number is never part of bytes or key. After upload the
// whole object is read back, decoded strictly and compared entry by entry (bytes and record counts) with the
// sources: offsets, entry boundaries and bytes never change. Buffers: source payloads are retained until encoded.
import {
  ErrorCode,
  NereusError,
  bytesEqual,
  crc32c,
  encodeKeyComponent,
  pad19,
  sha256Hex,
  type ObjectSliceTarget,
  type ObjectStore,
  type ReadTarget,
  type StoredEntry,
  type WalReader,
} from "@nereus/core";
import { decodeWalObject } from "../format/decode-wal-object.js";
import { encodeWalObject } from "../format/encode-wal-object.js";
import { WAL_OBJECT_LAYOUT } from "../format/wal-object-layout.js";
import { decodeWalObjectFooter } from "../format/decode-wal-object-footer.js";
import { objectKeyHash } from "../roots/physical-object-keys.js";
import type { PhysicalObjectRoot } from "../roots/physical-object-records.js";
import { uploadImmutableObject } from "../writer/upload-immutable-object.js";
import type { MaterializationSource } from "./plan-materialization.js";

/** Readers of source targets, by target type. */
export type SourceReaders = (target: ReadTarget) => WalReader | undefined;

/** Source reads in flight at once (sources of one task live in different WAL objects). */
const SOURCE_READ_CONCURRENCY = 8;

/** Reads one source's entries and checks them against its index record. */
export async function readSourceEntries(readers: SourceReaders, source: MaterializationSource, signal?: AbortSignal): Promise<readonly StoredEntry[]> {
  const reader = readers(source.readTarget);
  if (reader === undefined) {
    throw new NereusError(ErrorCode.UNSUPPORTED_READ_TARGET, `no source reader for ${source.readTarget.type} targets`, { retryable: false });
  }
  const stored = await reader.readEntries(source.readTarget, { signal });
  const counts = stored.map((entry) => entry.recordCount);
  if (counts.length !== source.entryRecordCounts.length || counts.some((count, index) => count !== source.entryRecordCounts[index])) {
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
 * its error and `details.sourceIndex` (the first failure wins; the other reads are still awaited).
 */
export async function readAllSources(readers: SourceReaders, sources: readonly MaterializationSource[], signal?: AbortSignal): Promise<StoredEntry[]> {
  const results: Array<readonly StoredEntry[]> = new Array<readonly StoredEntry[]>(sources.length);
  let failure: { readonly index: number; readonly error: unknown } | undefined;
  let next = 0;
  const lanes = Array.from({ length: Math.min(SOURCE_READ_CONCURRENCY, sources.length) }, async () => {
    for (let index = next++; index < sources.length && failure === undefined; index = next++) {
      try {
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

/** Encodes the output object of a task (pure). */
export function encodeGenerationObject(input: Omit<GenerationObjectInput, "store" | "signal">): EncodedGenerationObject {
  const hasher: Uint8Array[] = [];
  let logicalBytes = 0;
  for (const entry of input.entries) {
    hasher.push(entry.payload);
    logicalBytes += entry.payload.byteLength;
  }
  const contentSha = sha256Hex(concat(hasher));
  const objectId = `go-${encodeKeyComponent(input.claimToken)}`;
  const objectKey =
    `${encodeKeyComponent(input.cluster)}/generations/v1/${encodeKeyComponent(input.streamId)}/` +
    `${pad19(input.offsetStart)}-${pad19(input.offsetEnd)}/${contentSha}-${encodeKeyComponent(input.claimToken)}.nrs`;
  const encoded = encodeWalObject({
    writerId: input.workerId,
    attemptKey: objectId,
    createdAtMillis: input.createdAtMillis,
    slices: [{ streamId: input.streamId, firstExpectedOffset: input.offsetStart, entries: input.entries }],
  });
  const slice = encoded.manifest[0];
  if (slice === undefined || slice.recordCount !== input.offsetEnd - input.offsetStart) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, "generation object entries do not cover the task range exactly", { retryable: false });
  }
  const footer = decodeWalObjectFooter(encoded.bytes.subarray(encoded.bytes.length - WAL_OBJECT_LAYOUT.footerBytes), encoded.bytes.length);
  return {
    objectKey,
    bytes: encoded.bytes,
    logicalBytes,
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
      storageChecksum: crc32c(encoded.bytes),
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
export async function uploadGenerationObject(store: ObjectStore, encoded: EncodedGenerationObject, signal: AbortSignal): Promise<void> {
  await uploadImmutableObject(store, encoded.objectKey, encoded.bytes, { attempts: 3, backoffMs: 50, signal });
}

/**
 * Reads `target`'s whole object back, decodes it strictly and requires exactly `expected` (same entries, same
 * bytes, same record counts, slice where the target says). Throws OBJECT_CHECKSUM_MISMATCH-class errors otherwise.
 */
export async function verifyGenerationObject(store: ObjectStore, target: ReadTarget, streamId: string, offsetStart: number, expected: readonly StoredEntry[], signal?: AbortSignal): Promise<void> {
  if (target.type !== "OBJECT_SLICE") throw mismatch("the output is not an object slice");
  const decoded = decodeWalObject(await store.get(target.objectKey, undefined, { signal }));
  const descriptor = decoded.manifest[0];
  const slice = decoded.slices[0];
  if (decoded.slices.length !== 1 || descriptor === undefined || slice === undefined) throw mismatch("a generation object holds exactly one slice");
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
    if (source === undefined || source.recordCount !== entry.recordCount || !bytesEqual(source.payload, entry.payload)) {
      throw mismatch(`entry ${String(index)} differs from its source`);
    }
  });
}

function mismatch(message: string): NereusError {
  return new NereusError(ErrorCode.OBJECT_CHECKSUM_MISMATCH, `generation object verification failed: ${message}`, { retryable: false });
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((sum, part) => sum + part.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}
