// The produce tickets of one partition in their append order, and how the next append group is cut from the head of
// that order: the submitted tickets up to the first one still reserved (cancelled ones are dropped), of one topic
// incarnation, within the append limits (the first batch always fits). Whether a group may start at all (the
// pipeline has room, enough bytes wait) is the caller's `admit` decision; the bytes the group would hold are counted
// only if it asks (with nothing in flight it does not, and the serial path walks the queue once).
import type { ProduceTicket } from "./produce-ticket.js";

/** How large one append group may grow. */
export interface AppendGroupLimits {
  readonly maxAppendBytes: number;
  readonly maxAppendBatches: number;
}

/**
 * Invariants: tickets leave only from the head and in order; a reserved ticket is never passed (it blocks everything
 * behind it); a group holds at least one submitted ticket, all of one topic id, and more than one only within the
 * limits.
 */
export class ProduceQueue {
  readonly #tickets: ProduceTicket[] = [];

  /** Tickets held (reserved, submitted or cancelled). */
  get length(): number {
    return this.#tickets.length;
  }

  /** True when the head ticket is resolved (submitted or cancelled): a drain would make progress. */
  get headResolved(): boolean {
    const head = this.#tickets[0];
    return head !== undefined && head.state !== "reserved";
  }

  push(ticket: ProduceTicket): void {
    this.#tickets.push(ticket);
  }

  /**
   * Takes the next group if `admit(topicId, bytes)` allows it (`bytes()`: what the group would hold). Cancelled
   * tickets at the head are dropped either way; nothing else leaves when it returns undefined.
   */
  take(
    limits: AppendGroupLimits,
    admit: (topicId: string, bytes: () => number) => boolean,
  ): ProduceTicket[] | undefined {
    while (this.#tickets[0]?.state === "cancelled") this.#tickets.shift();
    const topicId = this.#tickets[0]?.submission?.topic.topicId;
    if (topicId === undefined || !admit(topicId, () => this.#groupBytes(limits, topicId))) return undefined;
    const group: ProduceTicket[] = [];
    let bytes = 0;
    for (;;) {
      const ticket = this.#tickets[0];
      if (ticket === undefined || ticket.state === "reserved") break;
      if (ticket.state === "cancelled") {
        this.#tickets.shift();
        continue;
      }
      const submission = ticket.submission;
      if (
        submission === undefined ||
        !fits(limits, group.length, bytes, submission.batch.byteLength, submission.topic.topicId, topicId)
      )
        break;
      group.push(ticket);
      bytes += submission.batch.byteLength;
      this.#tickets.shift();
    }
    return group;
  }

  /** Bytes of the group `take` would cut now (same walk, nothing removed). */
  #groupBytes(limits: AppendGroupLimits, topicId: string): number {
    let batches = 0;
    let bytes = 0;
    for (const ticket of this.#tickets) {
      if (ticket.state === "cancelled") continue;
      const submission = ticket.submission;
      if (ticket.state === "reserved" || submission === undefined) break;
      if (!fits(limits, batches, bytes, submission.batch.byteLength, submission.topic.topicId, topicId)) break;
      batches += 1;
      bytes += submission.batch.byteLength;
    }
    return bytes;
  }
}

/** Whether a batch of `size` bytes of topic `batchTopicId` joins a group of `batches` batches and `bytes` bytes. */
function fits(
  limits: AppendGroupLimits,
  batches: number,
  bytes: number,
  size: number,
  batchTopicId: string,
  groupTopicId: string,
): boolean {
  if (batchTopicId !== groupTopicId) return false;
  if (batches === 0) return true;
  return batches < limits.maxAppendBatches && bytes + size <= limits.maxAppendBytes;
}
