// The dispatch loop of one subscription: whenever something changed (permits, consumers, acks, new entries,
// redelivery requests) it runs rounds until no round makes progress. A round first hands out entries waiting for
// redelivery (Shared, Key_Shared), then reads new entries from the local read position. Rounds never overlap; a
// round whose reads straddle a restart of dispatch drops what it read. Consumers never get more than their permits
// (unless overdraft is enabled: then any positive balance takes a whole entry).
import type { AckTracker } from "./ack-tracker.js";
import { countRemaining } from "./batch-words.js";
import { pickConsumer } from "./consumer-picker.js";
import type { ConsumerState } from "./consumer-state.js";
import type { DispatchClock, ClockTimer } from "./dispatch-clock.js";
import type { DispatchState } from "./dispatch-state.js";
import type { EntrySource, SourceEntry } from "./entry-source.js";
import type { EntryMeta } from "./replay-queue.js";
import { stickyKeySlot } from "./sticky-key-hash.js";
import { type DeadLetterPolicy, isSingleActive } from "./subscription-types.js";

/** Tuning and hooks of a dispatcher (defaults resolved by the subscription). */
export interface DispatcherSettings {
  /** Entries per source read and per replay round. */
  readonly readBatchSize: number;
  /** Key_Shared: entries held back for ordering at most; reading new entries pauses beyond it. */
  readonly maxLookAhead: number;
  readonly permitOverdraft: boolean;
  readonly deadLetter: DeadLetterPolicy | undefined;
  readonly clock: DispatchClock;
  /** First delay before a failed read is retried (doubling up to 32 times it). */
  readonly retryDelayMs: number;
  readonly onError: (error: unknown) => void;
  /** The ack state was replaced behind dispatch's back (a reset not made through the subscription). */
  readonly onStateReplaced: () => void;
  /** An entry went to a consumer with an ack timeout; `deadline` is when it is due. */
  readonly onDeadline: (deadline: number) => void;
}

/** What an entry costs and which of its batch indexes the consumer must still process. */
interface EntryCost {
  readonly cost: number;
  readonly ackSet: readonly bigint[] | undefined;
}

interface Reservation extends EntryCost {
  readonly meta: EntryMeta;
  readonly consumer: ConsumerState;
}

/** Runs dispatch rounds over `state`; see the module comment. */
export class Dispatcher {
  readonly #state: DispatchState;
  readonly #acks: AckTracker;
  readonly #source: EntrySource;
  readonly #settings: DispatcherSettings;
  #wanted = false;
  #running: Promise<void> | undefined;
  #closed = false;
  #retryTimer: ClockTimer | undefined;
  #retryDelayMs: number;
  readonly #deadLetters = new Set<Promise<void>>();
  /** The mark-delete offset entries below which were last forgotten. */
  #markDeleteSeen = -1;

  constructor(state: DispatchState, acks: AckTracker, source: EntrySource, settings: DispatcherSettings) {
    this.#state = state;
    this.#acks = acks;
    this.#source = source;
    this.#settings = settings;
    this.#retryDelayMs = settings.retryDelayMs;
  }

  /** Asks for dispatch rounds (soon, not synchronously). */
  schedule(): void {
    if (this.#closed) return;
    this.#wanted = true;
    this.#running ??= this.#run();
  }

  /** Resolves once no round runs, none is wanted and no dead-lettering is in flight. */
  async whenIdle(): Promise<void> {
    while (this.#running !== undefined || this.#deadLetters.size > 0) {
      await (this.#running ?? Promise.race(this.#deadLetters));
    }
  }

  /** Stops dispatch (rounds in progress end without delivering more). */
  close(): void {
    this.#closed = true;
    this.#retryTimer?.cancel();
  }

  async #run(): Promise<void> {
    await Promise.resolve();
    try {
      while (this.#wanted && !this.#closed) {
        this.#wanted = false;
        if (await this.#round()) this.#wanted = true;
      }
      this.#retryDelayMs = this.#settings.retryDelayMs;
    } catch (error) {
      this.#settings.onError(error);
      this.#retryLater();
    } finally {
      this.#running = undefined;
    }
  }

  #retryLater(): void {
    if (this.#closed || this.#retryTimer !== undefined) return;
    const delay = this.#retryDelayMs;
    this.#retryDelayMs = Math.min(delay * 2, this.#settings.retryDelayMs * 32);
    this.#retryTimer = this.#settings.clock.setTimer(delay, () => {
      this.#retryTimer = undefined;
      this.schedule();
    });
  }

  /** One round; true when it changed something (so another round may do more). */
  async #round(): Promise<boolean> {
    const state = this.#state;
    if (this.#acks.stateEpoch !== state.stateEpoch) this.#settings.onStateReplaced();
    if (this.#acks.markDeleteOffset !== this.#markDeleteSeen) {
      this.#markDeleteSeen = this.#acks.markDeleteOffset;
      state.forgetBelow(this.#markDeleteSeen);
    }
    if (state.type === undefined || state.consumers.size === 0 || state.holding) return false;
    if (state.availablePermits() <= 0) return false;
    let progress = false;
    if (!isSingleActive(state.type) && state.replay.size > 0) {
      const generation = state.generation;
      progress = await this.#replayRound();
      if (state.generation !== generation || this.#closed) return true;
    }
    return (await this.#readRound()) || progress;
  }

  /** Hands out entries waiting for redelivery, in offset order, as far as permits and ordering allow. */
  async #replayRound(): Promise<boolean> {
    const state = this.#state;
    const keyShared = state.type === "Key_Shared";
    const reserved: Reservation[] = [];
    const blockedSlots = new Set<number>();
    let progress = false;
    for (const meta of state.replay.entries()) {
      if (reserved.length >= this.#settings.readBatchSize || state.availablePermits() <= 0) break;
      if (keyShared && blockedSlots.has(meta.slot)) continue;
      const cost = this.#costOf(meta);
      if (cost === undefined) {
        state.forget(meta.offset);
        progress = true;
        continue;
      }
      if (this.#exceedsRedeliveries(meta.offset)) {
        state.replay.delete(meta.offset);
        this.#deadLetter(meta, undefined);
        progress = true;
        continue;
      }
      const pick = pickConsumer(state, meta, cost.cost, true, this.#settings.permitOverdraft);
      if (pick === undefined || pick === "blocked") {
        blockedSlots.add(meta.slot);
        continue;
      }
      state.replay.delete(meta.offset);
      state.assign(meta, pick, cost.cost, this.#deadlineFor(pick));
      reserved.push({ meta, consumer: pick, ...cost });
    }
    if (reserved.length === 0) return progress;
    const generation = state.generation;
    const entries = await this.#readOffsets(reserved.map((reservation) => reservation.meta.offset));
    if (state.generation !== generation || this.#closed) return true;
    for (const reservation of reserved) {
      const offset = reservation.meta.offset;
      if (state.outstanding.get(offset)?.consumer !== reservation.consumer) continue;
      const entry = entries.get(offset);
      if (entry === undefined) state.forget(offset);
      else this.#deliver(reservation.consumer, entry, reservation);
    }
    return true;
  }

  /** Reads new entries from the read position and hands them out until one cannot go anywhere now. */
  async #readRound(): Promise<boolean> {
    const state = this.#state;
    if (state.type === "Key_Shared" && state.replay.size >= this.#settings.maxLookAhead) return false;
    if (state.buffer.length === 0 && !(await this.#fillBuffer())) return false;
    let progress = false;
    while (state.buffer.length > 0 && !this.#closed) {
      const entry = state.buffer[0]!;
      const meta: EntryMeta = { offset: entry.offset, numMessages: entry.numMessages, slot: stickyKeySlot(entry.key) };
      const cost = this.#costOf(meta);
      if (cost === undefined || state.deadLettering.has(entry.offset)) {
        this.#advancePast(entry.offset);
        progress = true;
        continue;
      }
      if (this.#exceedsRedeliveries(entry.offset)) {
        this.#advancePast(entry.offset);
        this.#deadLetter(meta, entry);
        progress = true;
        continue;
      }
      const pick = pickConsumer(state, meta, cost.cost, false, this.#settings.permitOverdraft);
      if (pick === undefined) break;
      if (pick === "blocked") {
        if (state.replay.size >= this.#settings.maxLookAhead) break;
        this.#advancePast(entry.offset);
        state.replay.add(meta);
      } else {
        this.#advancePast(entry.offset);
        state.assign(meta, pick, cost.cost, this.#deadlineFor(pick));
        this.#deliver(pick, entry, cost);
      }
      progress = true;
    }
    return progress;
  }

  /** Reads the next entries into the buffer; false when there is nothing to read (or dispatch restarted). */
  async #fillBuffer(): Promise<boolean> {
    const state = this.#state;
    const budget = Math.min(this.#settings.readBatchSize, Math.max(1, state.availablePermits()));
    state.readPosition = this.#acks.nextUnacked(state.readPosition);
    const generation = state.generation;
    const entries = await this.#source.read(state.readPosition, budget);
    if (state.generation !== generation || this.#closed) return false;
    state.buffer = entries.filter((entry) => entry.offset >= state.readPosition);
    return state.buffer.length > 0;
  }

  #advancePast(offset: number): void {
    this.#state.buffer.shift();
    this.#state.readPosition = offset + 1;
  }

  /** What the entry costs now; undefined when it is acknowledged as a whole. */
  #costOf(meta: EntryMeta): EntryCost | undefined {
    if (this.#acks.isAcked(meta.offset)) return undefined;
    if (meta.numMessages <= 1) return { cost: 1, ackSet: undefined };
    const remaining = this.#acks.remaining(meta.offset, meta.numMessages);
    if (remaining === undefined) return { cost: meta.numMessages, ackSet: undefined };
    const cost = countRemaining(remaining);
    return cost === 0 ? undefined : { cost, ackSet: remaining };
  }

  #exceedsRedeliveries(offset: number): boolean {
    const policy = this.#settings.deadLetter;
    if (policy === undefined || isSingleActive(this.#state.type ?? "Exclusive")) return false;
    return (this.#state.redeliveryCounts.get(offset) ?? 0) > policy.maxRedeliveries;
  }

  #deadlineFor(consumer: ConsumerState): number | undefined {
    if (consumer.ackTimeoutMs === undefined) return undefined;
    const deadline = this.#settings.clock.now() + consumer.ackTimeoutMs;
    this.#settings.onDeadline(deadline);
    return deadline;
  }

  #deliver(consumer: ConsumerState, entry: SourceEntry, cost: EntryCost): void {
    const state = this.#state;
    const redeliveryCount = isSingleActive(state.type!) ? 0 : (state.redeliveryCounts.get(entry.offset) ?? 0);
    const delivery = { entry, redeliveryCount, epoch: consumer.epoch, permits: cost.cost };
    try {
      consumer.listener.deliver(cost.ackSet === undefined ? delivery : { ...delivery, ackSet: cost.ackSet });
    } catch (error) {
      this.#settings.onError(error);
    }
  }

  /** Reads the entries at `offsets` (ascending), one source read per run of consecutive offsets. */
  async #readOffsets(offsets: readonly number[]): Promise<Map<number, SourceEntry>> {
    const found = new Map<number, SourceEntry>();
    for (let start = 0; start < offsets.length;) {
      let end = start + 1;
      while (end < offsets.length && offsets[end] === offsets[end - 1]! + 1) end++;
      const entries = await this.#source.read(offsets[start]!, end - start);
      for (const entry of entries) found.set(entry.offset, entry);
      start = end;
    }
    return found;
  }

  /** Hands an entry past the redelivery limit to the dead-letter policy, then acknowledges it. */
  #deadLetter(meta: EntryMeta, entry: SourceEntry | undefined): void {
    const policy = this.#settings.deadLetter!;
    const state = this.#state;
    const count = state.redeliveryCounts.get(meta.offset) ?? 0;
    const generation = state.generation;
    state.deadLettering.add(meta.offset);
    const work = (async () => {
      try {
        const [read] = entry === undefined ? await this.#source.read(meta.offset, 1) : [entry];
        if (read?.offset === meta.offset) {
          await policy.deliver(read, count);
          await this.#acks.individualAck([{ offset: meta.offset }]);
        }
        state.deadLettering.delete(meta.offset);
        state.forget(meta.offset);
        this.schedule();
      } catch (error) {
        this.#settings.onError(error);
        state.deadLettering.delete(meta.offset);
        if (state.generation === generation && !this.#acks.isAcked(meta.offset)) state.replay.add(meta);
        this.#retryLater();
      }
    })();
    this.#deadLetters.add(work);
    void work.finally(() => this.#deadLetters.delete(work));
  }
}
