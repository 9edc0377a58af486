// The stream lifecycle table (docs/architecture.md §7) as a pure function: which head a seal / delete / trim produces from
// the current one, or that it is already done (idempotent), or that it is refused. Each edge is one head CAS that
// changes nothing else (never the committed end, the session or the commit chain).
import type { StreamHead } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";

export type LifecycleRequest =
  | { readonly kind: "seal" }
  /** ACTIVE/SEALED → DELETING (logical delete linearizes here). */
  | { readonly kind: "begin-delete" }
  /** DELETING → DELETED (completion; resumable after a crash). */
  | { readonly kind: "finish-delete" }
  | { readonly kind: "trim"; readonly trimOffset: number };

/** `undefined` when the head already satisfies the request; otherwise the new head. */
export type LifecyclePlan = StreamHead | undefined;

/**
 * Plans one lifecycle edge. Throws `STREAM_NOT_ACTIVE` for a refused edge (e.g. seal of a DELETING stream) and
 * `INVALID_ARGUMENT` for a trim beyond the committed end. Trim is monotone: a lower trim offset is a no-op.
 */
export function planLifecycleTransition(head: StreamHead, request: LifecycleRequest): LifecyclePlan {
  switch (request.kind) {
    case "seal":
      if (head.state === "SEALED") return undefined;
      if (head.state !== "ACTIVE") throw notActive(head, "seal");
      return { ...head, state: "SEALED" };
    case "begin-delete":
      if (head.state === "DELETING" || head.state === "DELETED") return undefined;
      return { ...head, state: "DELETING" };
    case "finish-delete":
      if (head.state === "DELETED") return undefined;
      if (head.state !== "DELETING") throw notActive(head, "finish deleting");
      return { ...head, state: "DELETED" };
    case "trim": {
      const trim = request.trimOffset;
      if (!Number.isSafeInteger(trim) || trim < 0) {
        throw new NereusError(
          ErrorCode.INVALID_ARGUMENT,
          `trim offset must be a non-negative safe integer, got ${String(trim)}`,
          { retryable: false },
        );
      }
      if (head.state !== "ACTIVE" && head.state !== "SEALED") throw notActive(head, "trim");
      if (trim > head.committedEndOffset) {
        throw new NereusError(
          ErrorCode.INVALID_ARGUMENT,
          `stream ${head.streamId}: cannot trim to ${String(trim)} beyond the committed end ${String(head.committedEndOffset)}`,
          { retryable: false },
        );
      }
      if (trim <= head.trimOffset) return undefined;
      return { ...head, trimOffset: trim };
    }
  }
}

function notActive(head: StreamHead, action: string): NereusError {
  return new NereusError(ErrorCode.STREAM_NOT_ACTIVE, `stream ${head.streamId} is ${head.state}; cannot ${action} it`, {
    retryable: false,
    details: { streamId: head.streamId, state: head.state },
  });
}
