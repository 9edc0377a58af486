// The lifecycle of a physical-object root as a pure transition function: ACTIVE → MARKED → DELETING → DELETED, plus
// MARKED → ACTIVE (a reference appeared while marked: the mark is vetoed). DELETING never returns to ACTIVE and
// DELETED is final. Every transition adds one to the lifecycle epoch; the collector writes it by CAS on the root's
// exact revision, so a protection built on the root's earlier revision can never be committed afterwards.
import { ErrorCode, NereusError } from "@nereus/core";
import type { PhysicalObjectLifecycle, PhysicalObjectRoot } from "../roots/physical-object-records.js";

const ALLOWED: ReadonlyMap<PhysicalObjectLifecycle, readonly PhysicalObjectLifecycle[]> = new Map([
  ["ACTIVE", ["MARKED"]],
  ["MARKED", ["ACTIVE", "DELETING"]],
  ["DELETING", ["DELETED"]],
]);

/** True when a root may move from `from` to `to`. */
export function canMoveRoot(from: PhysicalObjectLifecycle, to: PhysicalObjectLifecycle): boolean {
  return ALLOWED.get(from)?.includes(to) ?? false;
}

/** `root` moved to `to` with the next lifecycle epoch; METADATA_INVARIANT_VIOLATION for a forbidden move. */
export function moveRoot(root: PhysicalObjectRoot, to: PhysicalObjectLifecycle): PhysicalObjectRoot {
  if (!canMoveRoot(root.lifecycle, to)) {
    throw new NereusError(
      ErrorCode.METADATA_INVARIANT_VIOLATION,
      `root of ${root.objectKey} cannot move from ${root.lifecycle} to ${to}`,
      { retryable: false },
    );
  }
  return { ...root, lifecycle: to, lifecycleEpoch: root.lifecycleEpoch + 1 };
}
