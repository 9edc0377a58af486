// The value types of the subscription API: subscription types, consumer options and listeners, deliveries, ack
// requests and seek targets. Protocol-neutral: ids and epochs are the bigints the Pulsar protocol carries, offsets
// are stream offsets (Pulsar entry ids), batch bit maps follow the cursor's convention (a set bit = unacknowledged).
import type { SourceEntry } from "./entry-source.js";

/** How a subscription spreads entries over its consumers. */
export type SubscriptionType = "Exclusive" | "Failover" | "Shared" | "Key_Shared";

/** True for the types with one active consumer (Exclusive, Failover). */
export function isSingleActive(type: SubscriptionType): boolean {
  return type === "Exclusive" || type === "Failover";
}

/** One entry handed to a consumer. */
export interface Delivery {
  readonly entry: SourceEntry;
  /** Times the entry was redelivered (0 on its first delivery; always 0 for Exclusive and Failover). */
  readonly redeliveryCount: number;
  /** The entry's still-unacknowledged batch indexes when some are acknowledged (the client skips the others). */
  readonly ackSet?: readonly bigint[];
  /** The consumer's epoch when the entry was handed over. */
  readonly epoch: bigint;
  /** Messages of the entry this delivery cost in permits. */
  readonly permits: number;
}

/** Why the subscription disconnected a consumer (the client reconnects and subscribes again). */
export type DisconnectReason = "seek" | "unsubscribed" | "closed";

/**
 * Where a consumer's events go. Calls are synchronous and never re-entered; a listener must not call back into the
 * subscription synchronously (queue the work instead).
 */
export interface ConsumerListener {
  deliver(delivery: Delivery): void;
  /** Exclusive and Failover: this consumer became the active one (true) or a standby (false). */
  activeChanged?(active: boolean): void;
  /** The subscription removed this consumer. */
  disconnected?(reason: DisconnectReason): void;
}

export interface ConsumerOptions {
  /** Unique among the subscription's connected consumers. */
  readonly consumerId: bigint;
  readonly consumerName: string;
  readonly type: SubscriptionType;
  /** Lower is served first (Shared, Key_Shared) or chosen first (Failover); default 0. */
  readonly priorityLevel?: number;
  /** Epoch of the consumer's view (raised by redelivery requests); default 0. */
  readonly epoch?: bigint;
  /** Redeliver entries not acknowledged within this many milliseconds; default never. */
  readonly ackTimeoutMs?: number;
  readonly listener: ConsumerListener;
}

/**
 * Batch indexes of an ack or a seek as a client names them: the still-unacknowledged bits (trailing zero words may
 * be left out), and the entry's batch size when the client sent it. Without it the subscription takes the size from
 * the entry (Pulsar clients send none with individual batch-index acks and seeks).
 */
export interface RequestBatchBits {
  readonly remaining: readonly bigint[];
  readonly batchSize?: number;
}

/** One entry of an individual ack: whole, or with `batch` only those batch indexes. */
export interface AckItem {
  readonly offset: number;
  readonly batch?: RequestBatchBits;
}

/**
 * An acknowledgement: individual entries (whole, or some batch indexes of each), or cumulative through `offset`
 * (with `batch`: every entry below `offset` and those batch indexes of it).
 */
export type AckRequest =
  | { readonly kind: "individual"; readonly items: readonly AckItem[] }
  | { readonly kind: "cumulative"; readonly offset: number; readonly batch?: RequestBatchBits };

/** Where a seek lands: an entry (with `partial`, some of its batch indexes already acknowledged) or a publish time. */
export type SeekTarget =
  { readonly offset: number; readonly partial?: RequestBatchBits } | { readonly publishTime: number };

/** An entry that exceeded the redelivery limit, with the count it reached. */
export interface DeadLetterPolicy {
  /** Redeliveries after which the entry goes to `deliver` instead of a consumer (Shared and Key_Shared). */
  readonly maxRedeliveries: number;
  /** Publishes the entry elsewhere; once it resolves the subscription acknowledges the entry. */
  deliver(entry: SourceEntry, redeliveryCount: number): Promise<void>;
}
