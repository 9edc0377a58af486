// A consumer listener that records what it is told, and helpers to act as a client would (ack what was delivered,
// grant permits). Test-only.
import type {
  ConsumerListener,
  ConsumerOptions,
  Delivery,
  DisconnectReason,
  SubscriptionType,
} from "../subscription-types.js";

export class RecordingConsumer implements ConsumerListener {
  readonly id: bigint;
  readonly deliveries: Delivery[] = [];
  readonly activeChanges: boolean[] = [];
  readonly disconnects: DisconnectReason[] = [];

  constructor(id: bigint | number) {
    this.id = BigInt(id);
  }

  deliver(delivery: Delivery): void {
    this.deliveries.push(delivery);
  }

  activeChanged(active: boolean): void {
    this.activeChanges.push(active);
  }

  disconnected(reason: DisconnectReason): void {
    this.disconnects.push(reason);
  }

  /** Delivered offsets in delivery order. */
  offsets(): number[] {
    return this.deliveries.map((delivery) => delivery.entry.offset);
  }

  /** Consumer options for this listener. */
  options(type: SubscriptionType, extra: Partial<ConsumerOptions> = {}): ConsumerOptions {
    return { consumerId: this.id, consumerName: `consumer-${String(this.id)}`, type, listener: this, ...extra };
  }
}
