// A Pulsar subscription without the protocol: consumers join and leave, grant permits, acknowledge, ask for
// redelivery and seek; the subscription hands each entry to the consumers its type's rules allow (see
// Dispatcher and pickConsumer). The ack state is a durable cursor or, for readers, an in-memory one. Handlers turn
// calls into frames and deliveries into MESSAGE frames; nothing here knows about sockets or frames.
import { ErrorCode, NereusError } from "@nereus/core";
import type { BatchBits, MutationResult } from "@nereus/cursor";
import type { AckTracker } from "./ack-tracker.js";
import { AckTimeouts } from "./ack-timeouts.js";
import { ConsumerState } from "./consumer-state.js";
import { type ClockTimer, type DispatchClock, systemClock } from "./dispatch-clock.js";
import { DispatchState } from "./dispatch-state.js";
import { Dispatcher } from "./dispatcher.js";
import type { EntrySource } from "./entry-source.js";
import { chooseActiveConsumer } from "./failover-order.js";
import { completeBatchBits } from "./request-batch-bits.js";
import {
  type ConsumerInfo,
  type RedeliverOptions,
  type SubscriptionOptions,
  checkSeekTarget,
  checkSubscriptionOptions,
} from "./subscription-options.js";
import { SubscriptionRefusedError } from "./subscription-refused-error.js";
import {
  type AckRequest,
  type ConsumerOptions,
  type DisconnectReason,
  type RequestBatchBits,
  type SeekTarget,
  type SubscriptionType,
  isSingleActive,
} from "./subscription-types.js";

/**
 * One subscription of one topic (partition). Invariants: an entry is with at most one consumer at a time until it is
 * acknowledged or taken back (redelivery, consumer leaving, ack timeout); no consumer is handed more than its
 * permits; dispatch starts at the ack state's first unacknowledged entry and never skips an unacknowledged entry;
 * an ack resolves only once the ack state holds it (for a durable cursor: after its compare-and-swap).
 */
export class Subscription {
  readonly name: string;
  readonly #acks: AckTracker;
  readonly #source: EntrySource;
  readonly #state: DispatchState;
  readonly #dispatcher: Dispatcher;
  readonly #timeouts: AckTimeouts;
  readonly #clock: DispatchClock;
  readonly #partitionIndex: number;
  readonly #topicName: string | undefined;
  readonly #failoverDelayMs: number;
  #failoverTimer: ClockTimer | undefined;
  readonly #onError: (error: unknown) => void;
  readonly #stopListening: () => void;
  #closed = false;
  #busy: string | undefined;

  constructor(name: string, acks: AckTracker, source: EntrySource, options: SubscriptionOptions = {}) {
    checkSubscriptionOptions(options);
    this.name = name;
    this.#acks = acks;
    this.#source = source;
    this.#clock = options.clock ?? systemClock;
    this.#partitionIndex = options.partitionIndex ?? -1;
    this.#topicName = options.topicName;
    this.#failoverDelayMs = options.failoverDelayMs ?? 0;
    this.#onError = options.onError ?? (() => undefined);
    this.#state = new DispatchState(acks.firstUnacked(), acks.stateEpoch);
    this.#timeouts = new AckTimeouts(this.#clock, () => this.#expireAckTimeouts());
    this.#dispatcher = new Dispatcher(this.#state, acks, source, {
      readBatchSize: options.readBatchSize ?? 100,
      maxLookAhead: options.maxLookAhead ?? 10_000,
      permitOverdraft: options.permitOverdraft ?? false,
      deadLetter: options.deadLetter,
      clock: this.#clock,
      retryDelayMs: options.retryDelayMs ?? 100,
      onError: this.#onError,
      onStateReplaced: () => this.#restartFromAcks(true),
      onDeadline: (deadline) => this.#timeouts.arm(deadline),
    });
    this.#stopListening = source.onEntriesAvailable(() => this.#dispatcher.schedule());
  }

  get durable(): boolean {
    return this.#acks.durable;
  }

  /** The type of the connected consumers (the last one's after all left; undefined before the first joined). */
  get type(): SubscriptionType | undefined {
    return this.#state.type;
  }

  /** Exclusive and Failover: the consumer entries go to. */
  get activeConsumerId(): bigint | undefined {
    return this.#state.active?.id;
  }

  /** First entry not cumulatively acknowledged (the Pulsar mark-delete position is the entry before it). */
  get markDeleteOffset(): number {
    return this.#acks.markDeleteOffset;
  }

  consumers(): ConsumerInfo[] {
    return [...this.#state.consumers.values()].map((consumer) => ({
      consumerId: consumer.id,
      consumerName: consumer.name,
      priorityLevel: consumer.priorityLevel,
      permits: consumer.permits,
      unackedEntries: consumer.outstanding.size,
      active: consumer.active,
      epoch: consumer.epoch,
    }));
  }

  /**
   * Connects a consumer. Refused (SubscriptionRefusedError) when a consumer of another type is connected, a second
   * one asks for Exclusive, the id is taken, no Key_Shared range is left, or a seek or unsubscribe is running.
   */
  addConsumer(options: ConsumerOptions): void {
    this.#checkAvailable();
    const state = this.#state;
    if (state.consumers.has(options.consumerId)) {
      throw new SubscriptionRefusedError("ALREADY_CONNECTED", `consumer ${options.consumerId} is already connected`);
    }
    if (state.consumers.size > 0 && (state.type !== options.type || options.type === "Exclusive")) {
      const why = state.type === options.type ? "has an exclusive consumer" : `is of type ${String(state.type)}`;
      throw new SubscriptionRefusedError("CONSUMER_BUSY", `subscription ${this.name} ${why}`);
    }
    const consumer = new ConsumerState(options, state.nextJoinSequence());
    if (options.type === "Key_Shared") state.selector.add(consumer.id);
    state.type = options.type;
    state.consumers.set(consumer.id, consumer);
    if (isSingleActive(options.type)) this.#electActive(consumer);
    this.#dispatcher.schedule();
  }

  /**
   * Disconnects a consumer (idempotent; false when it was not connected). Its unacknowledged entries go to the
   * other consumers; a Failover standby takes over from the first unacknowledged entry.
   */
  removeConsumer(consumerId: bigint): boolean {
    const consumer = this.#state.consumers.get(consumerId);
    if (consumer === undefined) return false;
    this.#detach(consumer);
    this.#dispatcher.schedule();
    return true;
  }

  /** Grants `permits` more messages to a consumer. */
  flow(consumerId: bigint, permits: number): void {
    if (!Number.isSafeInteger(permits) || permits < 0) {
      throw invalidArgument(`permits must be a non-negative integer, got ${String(permits)}`);
    }
    this.#consumer(consumerId).permits += permits;
    this.#dispatcher.schedule();
  }

  /**
   * Acknowledges for a consumer; resolves once the ack state holds the ack. Cumulative acks are refused
   * (NOT_ALLOWED) on Shared and Key_Shared subscriptions. A batch bit map without a batch size gets the entry's;
   * one with a size other than the entry's is refused (INVALID_ARGUMENT).
   */
  async acknowledge(consumerId: bigint, request: AckRequest): Promise<MutationResult> {
    this.#consumer(consumerId);
    if (request.kind === "cumulative") {
      if (!isSingleActive(this.#state.type!)) {
        throw new SubscriptionRefusedError(
          "NOT_ALLOWED",
          `cumulative ack is not allowed on a ${this.#state.type} subscription`,
        );
      }
      const batch = request.batch && (await this.#completeBatch(request.offset, request.batch, "cumulative ack"));
      const result = await this.#acks.cumulativeAck(request.offset, batch);
      this.#forgetAcked(this.#state.outstanding.keys());
      return result;
    }
    const items = await Promise.all(
      request.items.map(async ({ offset, batch }) =>
        batch === undefined ? { offset } : { offset, batch: await this.#completeBatch(offset, batch, "ack") },
      ),
    );
    const result = await this.#acks.individualAck(items);
    this.#forgetAcked(items.map((item) => item.offset));
    return result;
  }

  /**
   * Redelivers a consumer's unacknowledged entries: Shared and Key_Shared the given ones it holds (default all),
   * counting a redelivery for each; Exclusive and Failover (the active consumer only) rewind to the first
   * unacknowledged entry. Raises the consumer's epoch to `epoch` when that is higher.
   */
  redeliver(consumerId: bigint, options: RedeliverOptions = {}): void {
    const consumer = this.#consumer(consumerId);
    if (options.epoch !== undefined && options.epoch > consumer.epoch) consumer.epoch = options.epoch;
    if (isSingleActive(this.#state.type!)) {
      if (consumer === this.#state.active) this.#restartFromAcks(false);
      return;
    }
    const held = consumer.outstanding;
    const offsets = options.offsets === undefined ? [...held] : options.offsets.filter((offset) => held.has(offset));
    this.#state.requeue(offsets, true);
    this.#dispatcher.schedule();
  }

  /**
   * Moves the subscription: the ack state is reset so that the target is the next entry delivered, and every
   * consumer is disconnected ("seek") — clients reconnect. Subscribes are refused (UNAVAILABLE) meanwhile.
   */
  async seek(target: SeekTarget): Promise<void> {
    checkSeekTarget(target);
    await this.#exclusively("seek", async () => {
      const offset = "publishTime" in target ? await this.#source.findByPublishTime(target.publishTime) : target.offset;
      const partial =
        "offset" in target && target.partial !== undefined
          ? await this.#completeBatch(offset, target.partial, "seek target")
          : undefined;
      this.#disconnectAll("seek");
      const landing = this.#acks.durable ? offset : Math.min(offset, await this.#source.endOffset());
      await this.#acks.reset(landing, partial);
      this.#restartFromAcks(true);
    });
  }

  /**
   * Deletes the subscription for its only consumer (CONSUMER_BUSY when others are connected), then closes it.
   * The requesting consumer is removed without a disconnect event.
   */
  async unsubscribe(consumerId: bigint): Promise<void> {
    const consumer = this.#consumer(consumerId);
    if (this.#state.consumers.size !== 1) {
      throw new SubscriptionRefusedError("CONSUMER_BUSY", `subscription ${this.name} has other consumers connected`);
    }
    await this.#exclusively("unsubscribe", async () => {
      await this.#acks.delete();
      this.#detach(consumer);
      await this.close();
    });
  }

  /** Entries not acknowledged as a whole, up to the committed end. */
  async backlog(): Promise<number> {
    return this.#acks.backlog(await this.#source.endOffset());
  }

  /** Resolves once dispatch has nothing left to do for now. */
  whenIdle(): Promise<void> {
    return this.#dispatcher.whenIdle();
  }

  /** Stops dispatch and disconnects every consumer ("closed"). The ack state stays. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#dispatcher.close();
    this.#timeouts.cancel();
    this.#failoverTimer?.cancel();
    this.#stopListening();
    this.#disconnectAll("closed");
    await this.#dispatcher.whenIdle();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  // ---- internals ----

  #consumer(consumerId: bigint): ConsumerState {
    const consumer = this.#state.consumers.get(consumerId);
    if (consumer === undefined) {
      throw new SubscriptionRefusedError(
        "CONSUMER_NOT_FOUND",
        `no consumer ${consumerId} on subscription ${this.name}`,
      );
    }
    return consumer;
  }

  #checkAvailable(): void {
    if (this.#closed || this.#busy !== undefined) {
      const why = this.#closed ? "is closed" : `is busy with ${this.#busy}`;
      throw new SubscriptionRefusedError("UNAVAILABLE", `subscription ${this.name} ${why}`);
    }
  }

  /** Runs `work` with subscribes refused; one such operation at a time. */
  async #exclusively<T>(what: string, work: () => Promise<T>): Promise<T> {
    this.#checkAvailable();
    this.#busy = what;
    try {
      return await work();
    } finally {
      this.#busy = undefined;
    }
  }

  /** The complete batch map of a request's `bits` for the entry at `offset` (see completeBatchBits). */
  #completeBatch(offset: number, bits: RequestBatchBits, what: string): Promise<BatchBits> {
    const known = this.#state.outstanding.get(offset)?.meta.numMessages;
    return completeBatchBits(bits, offset, known, this.#source, `${what} of entry ${offset}`);
  }

  #forgetAcked(offsets: Iterable<number>): void {
    for (const offset of [...offsets]) if (this.#acks.isAcked(offset)) this.#state.forget(offset);
    this.#dispatcher.schedule();
  }

  /** Removes a consumer from dispatch: its entries go back, the active consumer is elected again. */
  #detach(consumer: ConsumerState): void {
    const state = this.#state;
    state.consumers.delete(consumer.id);
    if (state.type === "Key_Shared") state.selector.remove(consumer.id);
    if (state.consumers.size === 0) {
      state.active = undefined;
      consumer.active = false;
      this.#restartFromAcks(false);
    } else if (isSingleActive(state.type!)) {
      if (consumer.active) this.#electActive(undefined);
    } else {
      state.requeue(consumer.outstanding, false);
    }
  }

  #disconnectAll(reason: DisconnectReason): void {
    for (const consumer of [...this.#state.consumers.values()]) {
      this.#detach(consumer);
      this.#notify(() => consumer.listener.disconnected?.(reason));
    }
  }

  /** Elects the active consumer; a change restarts dispatch from the first unacknowledged entry. */
  #electActive(newcomer: ConsumerState | undefined): void {
    const state = this.#state;
    const previous = state.active;
    const next = chooseActiveConsumer(state.consumers.values(), this.#partitionIndex, this.#topicName);
    state.active = next;
    if (previous !== next) this.#activeConsumerChanged();
    for (const consumer of state.consumers.values()) {
      const active = consumer === next;
      if (consumer.active === active && consumer !== newcomer) continue;
      consumer.active = active;
      this.#notify(() => consumer.listener.activeChanged?.(active));
    }
  }

  /**
   * Dispatch starts again from the first unacknowledged entry for the new active consumer: at once, or for Failover
   * after `failoverDelayMs` (a change during the wait does not extend it), once the previous consumer had time to
   * acknowledge what it holds.
   */
  #activeConsumerChanged(): void {
    // Reads in flight and entries read ahead are dropped now: they must not reach the new consumer during the wait.
    this.#restartFromAcks(false);
    if (this.#state.type !== "Failover" || this.#failoverDelayMs === 0 || this.#failoverTimer !== undefined) return;
    this.#state.holding = true;
    this.#failoverTimer = this.#clock.setTimer(this.#failoverDelayMs, () => {
      this.#failoverTimer = undefined;
      this.#state.holding = false;
      this.#restartFromAcks(false);
    });
  }

  /** Restarts dispatch at the first unacknowledged entry (after a reset: redelivery counts are dropped too). */
  #restartFromAcks(replaced: boolean): void {
    if (replaced) this.#state.redeliveryCounts.clear();
    this.#state.restart(this.#acks.firstUnacked(), this.#acks.stateEpoch);
    this.#dispatcher.schedule();
  }

  /** Redelivers entries whose ack timeout passed and re-arms the timer for the next deadline. */
  #expireAckTimeouts(): void {
    const state = this.#state;
    const now = this.#clock.now();
    const expired = new Map<ConsumerState, number[]>();
    for (const [offset, held] of state.outstanding) {
      if (held.deadline === undefined || held.deadline > now) continue;
      const list = expired.get(held.consumer) ?? [];
      list.push(offset);
      expired.set(held.consumer, list);
    }
    for (const [consumer, offsets] of expired) {
      if (!isSingleActive(state.type!)) state.requeue(offsets, true);
      else if (consumer === state.active) this.#restartFromAcks(false);
    }
    let next: number | undefined;
    for (const held of state.outstanding.values()) {
      if (held.deadline !== undefined && (next === undefined || held.deadline < next)) next = held.deadline;
    }
    if (next !== undefined) this.#timeouts.arm(next);
    this.#dispatcher.schedule();
  }

  #notify(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.#onError(error);
    }
  }
}

function invalidArgument(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}
