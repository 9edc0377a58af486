// Subscriptions and dispatch of the Pulsar adapter, protocol-free: consumers, permits, the four subscription types,
// acks, redelivery and seek over a durable cursor or a reader's in-memory state. See Subscription.
export { Subscription } from "./subscription.js";
export type { SubscriptionOptions, ConsumerInfo, RedeliverOptions } from "./subscription-options.js";
export {
  openDurableSubscription,
  openReaderSubscription,
  type InitialPosition,
  type DurableSubscriptionParameters,
  type ReaderSubscriptionParameters,
} from "./open-subscription.js";
export type { EntrySource, SourceEntry, EntryReadOptions } from "./entry-source.js";
export type {
  AckRequest,
  ConsumerListener,
  ConsumerOptions,
  DeadLetterPolicy,
  Delivery,
  DisconnectReason,
  SeekTarget,
  SubscriptionType,
} from "./subscription-types.js";
export { SubscriptionRefusedError, type RefusalReason } from "./subscription-refused-error.js";
export { type DispatchClock, type ClockTimer, systemClock } from "./dispatch-clock.js";
export { STICKY_KEY_HASH_RANGE, murmur3x86_32, stickyKeySlot } from "./sticky-key-hash.js";
