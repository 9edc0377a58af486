// Reads and replaces a stream's StreamMaterialization record by CAS on its exact revision, optionally together with
// other compares and writes in the same transaction (a task transition that also writes a generation index entry
// and a protection). A transaction whose response was lost is resolved by reloading the record: our exact bytes
// at a newer revision ⇒ applied (claim tokens make our bytes unique); anything else ⇒ not applied by us.
import { NereusError, type MetadataStore, type RevisionCompare, type WriteOp } from "@nereus/core";
import { bytesEqual } from "@nereus/core/internal";
import { streamMaterializationKey } from "./materialization-keys.js";
import { emptyMaterialization, type StreamMaterialization } from "./materialization-records.js";
import { streamMaterializationCodec } from "./stream-materialization-codec.js";

/** A record as stored (revision 0: absent, i.e. the empty record). */
export interface VersionedMaterialization {
  readonly record: StreamMaterialization;
  readonly revision: number;
}

export type ReplaceOutcome = { readonly ok: true; readonly revision: number } | { readonly ok: false };

export class MaterializationStateStore {
  readonly #metadata: MetadataStore;
  readonly #cluster: string;

  constructor(metadata: MetadataStore, cluster: string) {
    this.#metadata = metadata;
    this.#cluster = cluster;
  }

  key(streamId: string): string {
    return streamMaterializationKey(this.#cluster, streamId);
  }

  async load(streamId: string, signal?: AbortSignal): Promise<VersionedMaterialization> {
    const key = this.key(streamId);
    const stored = await this.#metadata.get(key, { signal });
    if (stored === undefined) return { record: emptyMaterialization(streamId), revision: 0 };
    return { record: streamMaterializationCodec.decode(stored.value, key), revision: stored.modRevision };
  }

  /** Decodes a record read elsewhere (e.g. by a getMany). */
  decode(streamId: string, value: Uint8Array | undefined, revision: number): VersionedMaterialization {
    if (value === undefined) return { record: emptyMaterialization(streamId), revision: 0 };
    return { record: streamMaterializationCodec.decode(value, this.key(streamId)), revision };
  }

  /**
   * Replaces the record at `expectedRevision` with `next`, atomically with `extra`. `{ ok: false }` when the record
   * (or an extra compare) changed first: the caller's view is stale and it must reload.
   */
  async replace(
    expected: VersionedMaterialization,
    next: StreamMaterialization,
    extra: { readonly compares?: readonly RevisionCompare[]; readonly writes?: readonly WriteOp[] } = {},
    signal?: AbortSignal,
  ): Promise<ReplaceOutcome> {
    const key = this.key(next.streamId);
    const value = streamMaterializationCodec.encode(next);
    try {
      const result = await this.#metadata.txn(
        {
          compares: [{ key, modRevision: expected.revision }, ...(extra.compares ?? [])],
          writes: [{ type: "put", key, value }, ...(extra.writes ?? [])],
        },
        { signal },
      );
      return result.succeeded ? { ok: true, revision: result.revision } : { ok: false };
    } catch (error) {
      if (!NereusError.is(error) || error.details["ambiguous"] === false) throw error;
      const stored = await this.#metadata.get(key, { signal });
      if (stored !== undefined && stored.modRevision > expected.revision && bytesEqual(stored.value, value))
        return { ok: true, revision: stored.modRevision };
      return { ok: false };
    }
  }
}
