// Applies one planned head change (a lifecycle edge or a session change) with a CAS on the head's revision,
// starting from the lane's cached head. A lost CAS re-plans against the head it read back; a response-lost CAS
// reloads and re-plans (an applied change then shows up as "already done"), so every transition must be
// idempotent in effect. Runs inside the stream's lane, so it sees every earlier local append.
import type { Deadline } from "../timing/deadline.js";
import type { StreamHead } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { MetadataAmbiguousError } from "../errors/metadata-ambiguous-error.js";
import { NereusError } from "../errors/nereus-error.js";
import { loadHead } from "../records/load-head.js";
import type { StreamLane } from "../lane/stream-lane.js";
import type { LifecycleContext } from "./lifecycle-context.js";

/** CAS attempts before giving up with METADATA_CONDITION_FAILED. */
const MAX_ATTEMPTS = 16;

/** Plans the new head from the current one; `undefined` = nothing to change. May throw to refuse. */
export type HeadTransition = (head: StreamHead) => StreamHead | undefined;

/** Applies `transition` and returns the resulting head (the unchanged head when it was already done). */
export async function applyHeadTransition(
  context: LifecycleContext,
  lane: StreamLane,
  transition: HeadTransition,
  deadline: Deadline,
): Promise<StreamHead> {
  const headKey = context.keyspace.headKey(lane.streamId);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    deadline.check(`head update of ${lane.streamId}`);
    const cached = lane.cachedHead;
    const base = cached ?? (await loadHead(context.metadata, context.keyspace, lane.streamId, deadline.signal));
    lane.cachedHead = base;
    let next: StreamHead | undefined;
    try {
      next = transition(base.head);
    } catch (error) {
      // A cached head may be older than the stored one (another store appended or trimmed since): a transition it
      // refuses is planned again from the stored head before the refusal counts.
      if (cached === undefined) throw error;
      lane.invalidateHead();
      continue;
    }
    if (next === undefined) return base.head;
    let result;
    try {
      result = await context.metadata.txn(
        {
          compares: [{ key: headKey, modRevision: base.revision }],
          writes: [{ type: "put", key: headKey, value: context.keyspace.encodeHead(next) }],
          readOnFailure: [headKey],
        },
        { signal: deadline.signal },
      );
    } catch (error) {
      lane.invalidateHead();
      if (MetadataAmbiguousError.isAmbiguous(error)) continue;
      throw error;
    }
    if (result.succeeded) {
      lane.cachedHead = { head: next, revision: result.revision };
      return next;
    }
    const current = result.current.get(headKey);
    lane.cachedHead = current === undefined ? undefined : context.keyspace.decodeHead(current);
  }
  throw new NereusError(ErrorCode.METADATA_CONDITION_FAILED, `stream ${lane.streamId}: head kept changing`);
}
