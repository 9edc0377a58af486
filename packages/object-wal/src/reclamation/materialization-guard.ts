// What a collector of another WAL (the BookKeeper ledger collector) needs from a stream's materialization record so
// that it never releases a range a materialization task in flight reads: the task's range while it is CLAIMED or
// PREPARED, and the compare on the record's revision (absence when there is none) that its release transactions carry
// — a task claimed after the read makes them fail instead of releasing under it.
import type { MetadataStore, RevisionCompare } from "@nereus/core";
import type { OffsetRange } from "@nereus/core/internal";
import { MaterializationStateStore } from "../generations/materialization-state-store.js";

/** The busy ranges of a stream and the compares proving them current. */
export interface MaterializationUse {
  readonly busy: readonly OffsetRange[];
  readonly compares: readonly RevisionCompare[];
}

/** Reads `streamId`'s materialization use from the cluster's records (one metadata read per call). */
export function materializationGuard(
  metadata: MetadataStore,
  cluster: string,
): (streamId: string, signal?: AbortSignal) => Promise<MaterializationUse> {
  const states = new MaterializationStateStore(metadata, cluster);
  return async (streamId, signal) => {
    const state = await states.load(streamId, signal);
    const task = state.record.task;
    const busy =
      task !== undefined && (task.state === "CLAIMED" || task.state === "PREPARED")
        ? [{ offsetStart: task.offsetStart, offsetEnd: task.offsetEnd }]
        : [];
    return { busy, compares: [{ key: states.key(streamId), modRevision: state.revision }] };
  };
}
