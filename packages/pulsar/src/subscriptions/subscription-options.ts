// The options and reports of a subscription (tuning, clock, dead-letter policy; consumer statistics; redelivery
// requests) and their checks, made before anything changes.
import { ErrorCode, NereusError } from "@nereus/core";
import type { DispatchClock } from "./dispatch-clock.js";
import type { DeadLetterPolicy, SeekTarget } from "./subscription-types.js";

export interface SubscriptionOptions {
  /** Time and timers of ack-timeout redelivery and read retries; default the system clock. */
  readonly clock?: DispatchClock;
  /** Failover on a partition of a partitioned topic: its index spreads active consumers; default -1 (none). */
  readonly partitionIndex?: number;
  /**
   * Failover on a topic that is not a partition: its full name picks the active consumer on a hash ring of the
   * consumers' names, as Apache Pulsar does; default none (the first consumer in order is active).
   */
  readonly topicName?: string;
  /** Entries per source read (default 100). */
  readonly readBatchSize?: number;
  /** Key_Shared: entries held back for ordering at most before reading pauses (default 10,000). */
  readonly maxLookAhead?: number;
  /**
   * Hand a whole entry to a consumer with any positive permit balance, as Pulsar brokers do, letting the balance go
   * negative (default false: an entry goes only to a consumer whose permits cover all its messages).
   */
  readonly permitOverdraft?: boolean;
  /**
   * Failover: after the active consumer changed, dispatch waits this long before it starts again from the first
   * unacknowledged entry, so the previous active consumer can still acknowledge what it holds (Apache Pulsar's
   * activeConsumerFailoverDelayTimeMillis); default 0 (at once).
   */
  readonly failoverDelayMs?: number;
  /** Shared and Key_Shared: where entries go after too many redeliveries (default: they are redelivered forever). */
  readonly deadLetter?: DeadLetterPolicy;
  /** First delay before a failed source read is retried (default 100 ms, doubling up to 32 times it). */
  readonly retryDelayMs?: number;
  /** Errors of dispatch (failed reads, throwing listeners, failed dead-lettering); default ignored. */
  readonly onError?: (error: unknown) => void;
}

/** A connected consumer as statistics report it. */
export interface ConsumerInfo {
  readonly consumerId: bigint;
  readonly consumerName: string;
  readonly priorityLevel: number;
  readonly permits: number;
  /** Entries handed to the consumer and not acknowledged. */
  readonly unackedEntries: number;
  readonly active: boolean;
  readonly epoch: bigint;
}

/** Options of a redelivery request. */
export interface RedeliverOptions {
  /** Entries to redeliver (Shared, Key_Shared; ignored by Exclusive and Failover, which rewind); default all. */
  readonly offsets?: readonly number[];
  /** The consumer's new epoch; deliveries from now on carry it. */
  readonly epoch?: bigint;
}

/** Throws INVALID_ARGUMENT for bad options. */
export function checkSubscriptionOptions(options: SubscriptionOptions): void {
  const positive = (value: number | undefined): boolean =>
    value === undefined || (Number.isSafeInteger(value) && value > 0);
  if (!positive(options.readBatchSize) || !positive(options.maxLookAhead) || !positive(options.retryDelayMs)) {
    throw invalidArgument("readBatchSize, maxLookAhead and retryDelayMs must be positive integers");
  }
  const delay = options.failoverDelayMs;
  if (delay !== undefined && (!Number.isSafeInteger(delay) || delay < 0)) {
    throw invalidArgument("failoverDelayMs must be a non-negative integer");
  }
  if (options.partitionIndex !== undefined && !Number.isSafeInteger(options.partitionIndex)) {
    throw invalidArgument("partitionIndex must be an integer");
  }
  const limit = options.deadLetter?.maxRedeliveries;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
    throw invalidArgument("deadLetter.maxRedeliveries must be a non-negative integer");
  }
}

/** Throws INVALID_ARGUMENT for a bad seek target (before any change). */
export function checkSeekTarget(target: SeekTarget): void {
  if ("publishTime" in target) {
    if (!Number.isFinite(target.publishTime)) throw invalidArgument("seek publish time must be a finite number");
    return;
  }
  if (!Number.isSafeInteger(target.offset) || target.offset < 0) {
    throw invalidArgument(`seek offset must be a non-negative safe integer, got ${String(target.offset)}`);
  }
}

function invalidArgument(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}
