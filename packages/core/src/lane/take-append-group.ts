// Group commit (docs/architecture.md §4.2, §11 decision 4): takes the appends waiting at the front of a lane that can share one
// physical write and one head CAS — same payload format, same execution plan, within the byte/entry bounds.
// The first waiting append is always taken, even when it alone exceeds the bounds. Pure queue surgery.
import type { LaneTask } from "./lane-operation.js";
import type { PendingAppend } from "./pending-append.js";

export interface GroupLimits {
  readonly maxBytes: number;
  readonly maxEntries: number;
}

/**
 * Removes and returns the leading run of mergeable appends from `queue` (which must start with an append).
 * With `limits` undefined only the first append is taken. Appends whose deadline already passed stay queued (the
 * lane fails them as not committed). With `projectedStart` (the group is planned against a projected head), an append
 * whose explicit `expectedStartOffset` is not exactly where it would land ends the group: such an expectation is
 * judged against a committed head, never against a projection.
 */
export function takeAppendGroup(
  queue: Array<PendingAppend | LaneTask>,
  limits: GroupLimits | undefined,
  projectedStart?: number,
): PendingAppend[] {
  const first = queue[0];
  if (first === undefined || first.kind !== "append") return [];
  const group: PendingAppend[] = [first];
  let bytes = first.batch.logicalBytes;
  let entries = first.batch.entryCount;
  let index = 1;
  let position = projectedStart === undefined ? undefined : projectedStart + first.batch.recordCount;
  if (limits !== undefined) {
    for (; index < queue.length; index++) {
      const next = queue[index];
      if (next === undefined || next.kind !== "append" || next.deadline.aborted) break;
      if (next.batch.payloadFormat !== first.batch.payloadFormat || !samePlan(next, first)) break;
      if (bytes + next.batch.logicalBytes > limits.maxBytes || entries + next.batch.entryCount > limits.maxEntries)
        break;
      if (position !== undefined && next.expectedStartOffset !== undefined && next.expectedStartOffset !== position)
        break;
      if (position !== undefined) position += next.batch.recordCount;
      bytes += next.batch.logicalBytes;
      entries += next.batch.entryCount;
      group.push(next);
    }
  }
  queue.splice(0, group.length);
  return group;
}

function samePlan(a: PendingAppend, b: PendingAppend): boolean {
  return (
    a.plan.profile === b.plan.profile &&
    a.plan.ackBoundary === b.plan.ackBoundary &&
    a.plan.walWriter === b.plan.walWriter
  );
}
