// The durable subscriptions a broker has open, shared by every connection: one Subscription per (topic, name),
// opened over the topic's current managed ledger on first use and reopened when that ledger was replaced (closed or
// failed and opened again). A subscription knows its topic's name and partition index, which spread the active
// consumers of Failover subscriptions over partitions and topics; Failover waits a second after a change of active
// consumer before dispatching again, as Apache Pulsar does. Unsubscribed subscriptions are forgotten; the rest are
// closed with the broker.
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import { ledgerEntrySource } from "../ledger/ledger-entry-source.js";
import { type InitialPosition, openDurableSubscription } from "../subscriptions/open-subscription.js";
import type { Subscription } from "../subscriptions/subscription.js";
import type { SubscriptionOptions } from "../subscriptions/subscription-options.js";
import { parseTopicName } from "../topics/topic-name.js";

/** Apache Pulsar's default activeConsumerFailoverDelayTimeMillis. */
const FAILOVER_DELAY_MS = 1_000;

interface OpenSubscription {
  readonly ledger: ManagedLedger;
  readonly opening: Promise<Subscription>;
}

/** Open durable subscriptions by topic and name. */
export class SubscriptionRegistry {
  readonly #open = new Map<string, OpenSubscription>();
  readonly #options: SubscriptionOptions;

  /** `options` apply to every subscription; Failover waits 1 s after a change of active consumer unless they say. */
  constructor(options: SubscriptionOptions) {
    this.#options = { failoverDelayMs: FAILOVER_DELAY_MS, ...options };
  }

  /** The open subscription `name` of `ledger`'s topic, opened (created at `initialPosition` if new) when needed. */
  async open(ledger: ManagedLedger, name: string, initialPosition: InitialPosition): Promise<Subscription> {
    const key = keyOf(ledger.name, name);
    const current = this.#open.get(key);
    if (current !== undefined && current.ledger === ledger) return current.opening;
    if (current !== undefined) {
      this.#open.delete(key);
      await (await current.opening.catch(() => undefined))?.close();
      return this.open(ledger, name, initialPosition);
    }
    const opening = openDurableSubscription({
      cursors: ledger.cursors,
      name,
      source: ledgerEntrySource(ledger),
      initialPosition,
      options: { ...this.#options, partitionIndex: parseTopicName(ledger.name).partitionIndex, topicName: ledger.name },
    });
    this.#open.set(key, { ledger, opening });
    opening.catch(() => {
      if (this.#open.get(key)?.opening === opening) this.#open.delete(key);
    });
    return opening;
  }

  /** Forgets `subscription` (after an unsubscribe closed it). */
  forget(topic: string, name: string, subscription: Subscription): void {
    const key = keyOf(topic, name);
    const current = this.#open.get(key);
    if (current === undefined) return;
    void current.opening.then(
      (opened) => {
        if (opened === subscription && this.#open.get(key) === current) this.#open.delete(key);
      },
      () => undefined,
    );
  }

  /**
   * The subscriptions of `topic` this registry has open, by name (read-only: nothing is opened; one whose opening
   * failed is left out).
   */
  async openedOn(topic: string): Promise<Map<string, Subscription>> {
    const prefix = keyOf(topic, "");
    const opened = new Map<string, Subscription>();
    for (const [key, { opening }] of [...this.#open]) {
      if (!key.startsWith(prefix)) continue;
      const subscription = await opening.catch(() => undefined);
      if (subscription !== undefined) opened.set(key.slice(prefix.length), subscription);
    }
    return opened;
  }

  /** Closes every open subscription (their consumers are disconnected; the ack state stays). */
  async close(): Promise<void> {
    const open = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(open.map(async ({ opening }) => (await opening.catch(() => undefined))?.close()));
  }
}

function keyOf(topic: string, name: string): string {
  return `${topic}\u0000${name}`;
}
