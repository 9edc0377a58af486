// ObjectStore SPI (version 1): immutable, create-only objects addressed by key. Implemented over S3 and the local
// filesystem by @nereus/object-wal, and in memory by @nereus/core/testing. What a store may offer beyond the minimal
// contract sits in one optional object, `ObjectStore.accelerations` (docs/architecture.md §2.1).

import type { DurabilityGate } from "./durability-gate.js";
export const OBJECT_STORE_SPI_VERSION = 1;

export interface ObjectIoOptions {
  readonly signal?: AbortSignal;
}

/** Options of a put. */
export interface PutOptions extends ObjectIoOptions {
  /**
   * CRC32C of the whole `body`, when the caller already has it (the WAL object encoder derives it from the
   * checksums it computes anyway): the store uses it instead of reading the body once more. It must be right: a
   * wrong value is stored (or sent) as the object's checksum and every later verified read fails.
   */
  readonly crc32c?: number;
}

export interface ObjectInfo {
  readonly key: string;
  readonly size: number;
  /** CRC32C of the whole object as stored, when the store knows it. */
  readonly crc32c?: number;
}

export interface ObjectListPage {
  readonly items: readonly ObjectInfo[];
  /** Pass back to continue; undefined on the last page. */
  readonly continuationToken?: string;
}

/**
 * Invariants:
 * - `putIfAbsent` is create-only: exactly one of concurrent writers of a key wins (`{ created: true }`); the others
 *   get `{ created: false }` (never an overwrite). The CRC32C is validated by the store on upload.
 * - A `putIfAbsent` whose response was lost is resolved by the implementation by reading the object back: identical
 *   bytes ⇒ `{ created: true }`; different ⇒ `{ created: false }`.
 * - `get` with a range returns exactly those bytes; a missing object raises `OBJECT_NOT_FOUND`.
 */
export interface ObjectStore {
  readonly spiVersion: typeof OBJECT_STORE_SPI_VERSION;
  putIfAbsent(key: string, body: Uint8Array, options?: PutOptions): Promise<{ readonly created: boolean }>;
  get(
    key: string,
    range?: { readonly offset: number; readonly length: number },
    options?: ObjectIoOptions,
  ): Promise<Uint8Array>;
  head(key: string, options?: ObjectIoOptions): Promise<ObjectInfo | undefined>;
  list(
    prefix: string,
    options?: ObjectIoOptions & { readonly continuationToken?: string; readonly limit?: number },
  ): Promise<ObjectListPage>;
  deleteMany(keys: readonly string[], options?: ObjectIoOptions): Promise<void>;
  close(): Promise<void>;
  /**
   * Optional accelerations (see {@link ObjectStoreAccelerations}); absent on stores that offer none. The object is
   * fixed for the store's lifetime. Callers must work without it.
   */
  readonly accelerations?: ObjectStoreAccelerations;
}

/**
 * What an `ObjectStore` may offer beyond the minimal contract, each member on its own. None changes what is stored
 * or what a read returns; each only lets a caller skip a copy or a wait. A caller must work (more slowly) against a
 * store that offers none of them, so it checks each member before using it and falls back to the plain SPI:
 * - `allocateBody` / `releaseBody`: bodies built in memory the store moves cheapest (the filesystem store hands out
 *   reused shared memory its publish workers write without a copy) instead of a fresh `Uint8Array`.
 * - `putIfAbsentGated`: a put that resolves once queued, with a {@link DurabilityGate} the head transaction waits
 *   on, so building and sending that transaction overlaps the write instead of following it.
 */
export interface ObjectStoreAccelerations {
  /**
   * Memory for a body of `length` bytes that will be passed to `putIfAbsent` (or `putIfAbsentGated`). Contents are
   * unspecified: the caller writes every byte. Any `Uint8Array` remains a valid body.
   */
  allocateBody?(length: number): Uint8Array;
  /**
   * With `allocateBody`: the caller will not read, write or put `body` again. The store may reuse its memory once
   * no put of it is in flight. Ignored for bodies the store did not allocate.
   */
  releaseBody?(body: Uint8Array): void;
  /**
   * Starts a create-only put of a key nobody has written and resolves as soon as the write is queued, with the gate
   * that opens once the object is durable and readable (`get` of the key waits for the write). Resolves
   * `undefined`, having started nothing, when this store cannot gate this put (the caller then uses `putIfAbsent`).
   * `done` settles like `putIfAbsent` would; a put that finds the key taken fails the gate and resolves
   * `{ created: false }`. The body must stay untouched until `done` settles.
   */
  putIfAbsentGated?(key: string, body: Uint8Array, options?: PutOptions): Promise<GatedPut | undefined>;
}

/** A put under way (see `ObjectStoreAccelerations.putIfAbsentGated`). */
export interface GatedPut {
  readonly gate: DurabilityGate;
  readonly done: Promise<{ readonly created: boolean }>;
}
