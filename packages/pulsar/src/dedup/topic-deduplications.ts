// The deduplication states of one broker, one per open topic ledger: recovered from storage when a producer
// attaches to a topic whose policy enables deduplication, checkpointed and dropped when the policy turns it off or
// the broker closes. A ledger that was replaced (failed, reopened) gets a fresh state recovered from storage; a
// recovery that failed is retried by the next attach, and until then the topic's sends fail with its error.
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import { TopicDeduplication, type TopicDeduplicationOptions } from "./topic-deduplication.js";

interface Slot {
  readonly ledger: ManagedLedger;
  readonly state: Promise<TopicDeduplication>;
  failed: boolean;
}

/** The deduplication states of a broker's topics (see the module comment). */
export class TopicDeduplications {
  readonly #options: TopicDeduplicationOptions;
  readonly #slots = new Map<string, Slot>();

  constructor(options: TopicDeduplicationOptions) {
    this.#options = options;
  }

  /**
   * The state of `ledger`, recovering it from storage on first use (or after a failed recovery); `attachedNames`:
   * the producers attached to the topic now (their names are active).
   */
  enable(ledger: ManagedLedger, attachedNames: readonly string[]): Promise<TopicDeduplication> {
    const current = this.#slots.get(ledger.name);
    if (current !== undefined && current.ledger === ledger && !current.failed) return current.state;
    const state = TopicDeduplication.recover(ledger, this.#options, attachedNames);
    const slot: Slot = { ledger, state, failed: false };
    slot.state.catch(() => {
      slot.failed = true;
    });
    this.#slots.set(ledger.name, slot);
    if (current !== undefined) void this.#close(current);
    return slot.state;
  }

  /** Stops deduplicating `ledger`'s topic: its state is checkpointed and dropped. */
  async disable(ledger: ManagedLedger): Promise<void> {
    const current = this.#slots.get(ledger.name);
    if (current === undefined) return;
    this.#slots.delete(ledger.name);
    await this.#close(current);
  }

  /**
   * The state sends to `ledger` go through, or undefined when its topic is not deduplicated. A promise: the state
   * may still be recovering (sends wait for it, in arrival order).
   */
  of(ledger: ManagedLedger): Promise<TopicDeduplication> | undefined {
    const current = this.#slots.get(ledger.name);
    return current?.ledger === ledger ? current.state : undefined;
  }

  /** Checkpoints and drops every state. */
  async close(): Promise<void> {
    const slots = [...this.#slots.values()];
    this.#slots.clear();
    await Promise.all(slots.map((slot) => this.#close(slot)));
  }

  async #close(slot: Slot): Promise<void> {
    const state = await slot.state.catch(() => undefined);
    await state?.close();
  }
}
