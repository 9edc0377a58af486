// The working state of one group commit: acks are applied to it one by one, in submission order, and each learns
// whether it changed anything. Runs of whole-entry individual acks (the common case) are not merged into the view
// one request at a time, which would copy the inline ranges once per request: their offsets collect in a set and
// are merged in one pass when the run ends. The outcome is the same as applying every request in turn.
import { isWholeAcked } from "../ack-state/ack-queries.js";
import { individualAcks } from "../ack-state/individual-acks.js";
import { type AckRequest, type AckWorkingState, applyAck } from "./ack-request.js";

/** Acks applied in order to one starting state. Not reusable across attempts: build one per decision. */
export class GroupAckState {
  #state: AckWorkingState;
  /** Whole entries acknowledged by the current run, not yet merged into the view. */
  readonly #pending = new Set<number>();

  constructor(start: AckWorkingState) {
    this.#state = start;
  }

  /**
   * True when `request` changes the state made by every request applied before it. With `commit` false the state
   * is left as it was (the request is only tested). Throws INVALID_ARGUMENT for a request the state refuses.
   */
  apply(request: AckRequest, commit: boolean): boolean {
    if (request.kind === "individual" && request.items.every((item) => item.batch === undefined)) {
      const fresh = request.items.filter(
        (item) => !this.#pending.has(item.offset) && !isWholeAcked(this.#state.view, item.offset),
      );
      if (commit) for (const item of fresh) this.#pending.add(item.offset);
      return fresh.length > 0;
    }
    this.#flush();
    const next = applyAck(this.#state, request);
    if (commit && next.applied) this.#state = next.state;
    return next.applied;
  }

  /** The state after every committed request. */
  result(): AckWorkingState {
    this.#flush();
    return this.#state;
  }

  #flush(): void {
    if (this.#pending.size === 0) return;
    const items = [...this.#pending].map((offset) => ({ offset }));
    this.#pending.clear();
    this.#state = { ...this.#state, view: individualAcks(this.#state.view, items).view };
  }
}
