// The refusals of subscription rules (a second Exclusive consumer, a cumulative ack on a Shared subscription, ...),
// as one NereusError subclass carrying a protocol-neutral reason the Pulsar handlers translate into a server error.
import { ErrorCode, NereusError } from "@nereus/core";

/**
 * Why a subscription refused a request:
 * - `CONSUMER_BUSY`: the subscription's consumers do not admit this one (Exclusive taken, another subscription
 *   type in use, unsubscribe while other consumers are connected).
 * - `CONSUMER_ASSIGN`: no Key_Shared hash range is left for a new consumer.
 * - `NOT_ALLOWED`: the request is not allowed for the subscription type (cumulative ack on Shared or Key_Shared).
 * - `CONSUMER_NOT_FOUND`: no consumer of the subscription has that id.
 * - `ALREADY_CONNECTED`: a consumer with that id is already connected.
 * - `UNAVAILABLE`: the subscription is being reset or is closed; a new subscribe may succeed later.
 */
export type RefusalReason =
  "CONSUMER_BUSY" | "CONSUMER_ASSIGN" | "NOT_ALLOWED" | "CONSUMER_NOT_FOUND" | "ALREADY_CONNECTED" | "UNAVAILABLE";

/** A request a subscription's rules refuse; nothing changed. `INVALID_ARGUMENT` with a {@link RefusalReason}. */
export class SubscriptionRefusedError extends NereusError {
  readonly reason: RefusalReason;

  constructor(reason: RefusalReason, message: string) {
    super(ErrorCode.INVALID_ARGUMENT, message, { retryable: reason === "UNAVAILABLE", details: { reason } });
    this.name = "SubscriptionRefusedError";
    this.reason = reason;
  }
}
