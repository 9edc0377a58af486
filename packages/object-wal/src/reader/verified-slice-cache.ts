// A byte-bounded LRU of NRS1 slices that already passed the strict slice decoder (CRC32C against the bytes and the
// target, structure, entry count). Objects are immutable and a key is never reused, so a slice named by the same
// object key, offset, length and checksum always holds the same bytes: serving it again from memory returns exactly
// what a fresh GET would, without downloading and hashing it again. Nothing unverified is ever stored.
// Buffers: cached payloads are read-only views shared by every caller that reads the slice; never modify them.
import type { ObjectSliceTarget, StoredEntry } from "@nereus/core";

interface CachedSlice {
  readonly entries: readonly StoredEntry[];
  readonly bytes: number;
}

/** Verified slices by identity, least recently used evicted first once `capacityBytes` is exceeded. */
export class VerifiedSliceCache {
  readonly #slices = new Map<string, CachedSlice>();
  readonly #capacityBytes: number;
  #bytes = 0;

  constructor(capacityBytes: number) {
    if (!Number.isSafeInteger(capacityBytes) || capacityBytes < 0) {
      throw new RangeError(`slice cache capacity must be a non-negative safe integer, got ${String(capacityBytes)}`);
    }
    this.#capacityBytes = capacityBytes;
  }

  /** Identity of a target's slice: everything that pins its bytes. */
  static keyOf(target: Pick<ObjectSliceTarget, "objectKey" | "sliceOffset" | "sliceLength" | "sliceChecksum">): string {
    return `${target.objectKey}\u0000${String(target.sliceOffset)}\u0000${String(target.sliceLength)}\u0000${String(target.sliceChecksum)}`;
  }

  /** Bytes currently held (sum of cached slice lengths). */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#slices.size;
  }

  /** The verified entries of `key`, marking them most recently used; undefined on a miss. */
  get(key: string): readonly StoredEntry[] | undefined {
    const slice = this.#slices.get(key);
    if (slice === undefined) return undefined;
    this.#slices.delete(key);
    this.#slices.set(key, slice);
    return slice.entries;
  }

  /** Stores verified entries (a slice larger than the whole capacity is not kept). */
  set(key: string, entries: readonly StoredEntry[], bytes: number): void {
    if (bytes > this.#capacityBytes) return;
    this.delete(key);
    this.#slices.set(key, { entries, bytes });
    this.#bytes += bytes;
    for (const [oldest, slice] of this.#slices) {
      if (this.#bytes <= this.#capacityBytes) break;
      this.#slices.delete(oldest);
      this.#bytes -= slice.bytes;
    }
  }

  delete(key: string): void {
    const slice = this.#slices.get(key);
    if (slice === undefined) return;
    this.#slices.delete(key);
    this.#bytes -= slice.bytes;
  }

  /** Drops every slice of `objectKey` (an object proved missing or quarantined). */
  deleteObject(objectKey: string): void {
    const prefix = `${objectKey}\u0000`;
    for (const key of [...this.#slices.keys()]) if (key.startsWith(prefix)) this.delete(key);
  }

  clear(): void {
    this.#slices.clear();
    this.#bytes = 0;
  }
}
