// Session identity for fencing: two sessions are the same when writer, epoch and token match. Lease version and
// expiry may differ (a same-writer renewal does not fence the writer's own in-flight appends).
import type { AppendSession } from "../domain/stream-head.js";

/** Same writer, epoch and token. */
export function sameSession(a: AppendSession, b: AppendSession): boolean {
  return a.writerId === b.writerId && a.epoch === b.epoch && a.fencingToken === b.fencingToken;
}
