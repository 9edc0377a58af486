// Compare-and-swap access to one record type in the MetadataStore: load with revision, create (put-if-absent),
// and replace at an exact revision. Lost CASes are values (`{ ok: false, current }`); a write whose response was
// lost (MetadataAmbiguousError) is resolved by reading the key back — ours iff the stored bytes are exactly ours —
// never by guessing. Every value written is a transition to a record with a new epoch, so "same bytes" identifies
// our own write.
import { MetadataAmbiguousError, type MetadataStore } from "@nereus/core";
import { bytesEqual, type RecordCodec } from "@nereus/core/internal";

/** A record as stored, with the revision a CAS on it compares. */
export interface Versioned<T> {
  readonly value: T;
  readonly revision: number;
}

/** Outcome of a conditional write. */
export type CasResult<T> =
  | { readonly ok: true; readonly stored: Versioned<T> }
  | { readonly ok: false; readonly current: Versioned<T> | undefined };

/** CAS access to the records of one codec. */
export class VersionedRecords<T> {
  readonly #metadata: MetadataStore;
  readonly #codec: RecordCodec<T>;

  constructor(metadata: MetadataStore, codec: RecordCodec<T>) {
    this.#metadata = metadata;
    this.#codec = codec;
  }

  /** The record at `key`, or undefined. */
  async load(key: string, signal?: AbortSignal): Promise<Versioned<T> | undefined> {
    const stored = await this.#metadata.get(key, signal === undefined ? {} : { signal });
    return stored === undefined
      ? undefined
      : { value: this.#codec.decode(stored.value, key), revision: stored.modRevision };
  }

  /** Writes `next` at `key` if the key is at `expectedRevision` (0: absent). */
  async replace(key: string, expectedRevision: number, next: T, signal?: AbortSignal): Promise<CasResult<T>> {
    const bytes = this.#codec.encode(next);
    try {
      const result = await this.#metadata.txn(
        {
          compares: [{ key, modRevision: expectedRevision }],
          writes: [{ type: "put", key, value: bytes }],
          readOnFailure: [key],
        },
        signal === undefined ? {} : { signal },
      );
      if (result.succeeded) return { ok: true, stored: { value: next, revision: result.revision } };
      const current = result.current.get(key);
      if (current !== undefined && bytesEqual(current.value, bytes))
        return { ok: true, stored: { value: next, revision: current.modRevision } };
      return {
        ok: false,
        current:
          current === undefined
            ? undefined
            : { value: this.#codec.decode(current.value, key), revision: current.modRevision },
      };
    } catch (error) {
      if (!MetadataAmbiguousError.isAmbiguous(error)) throw error;
      const current = await this.#metadata.get(key, signal === undefined ? {} : { signal });
      if (current !== undefined && bytesEqual(current.value, bytes))
        return { ok: true, stored: { value: next, revision: current.modRevision } };
      return {
        ok: false,
        current:
          current === undefined
            ? undefined
            : { value: this.#codec.decode(current.value, key), revision: current.modRevision },
      };
    }
  }
}
