// The produce path of one partition log: tickets queued in append order, the append loop that takes them in groups
// while the pipeline accepts one, plans each group against the projection (plan-append-group.ts) and issues its
// append, and the settlement chain that handles the groups' outcomes in launch order (settle-append-group.ts).
// Up to `maxInFlightAppends` appends per partition are in flight (see append-pipeline.ts): each group is planned
// against the projected end and appended with `expectedStartOffset` = that end; batches submitted while the
// pipeline is full are merged into the next group (one head CAS for all of them, each batch still its own entry).
// With `pipelinedAppendMinBytes`, a group starts beside one in flight only once that many bytes wait for it.
// The committed state belongs to the partition log (produce-host.ts); it changes only when a group's append
// succeeded, in group order.
import { KafkaErrorCode } from "../protocol/error-codes.js";
import { AppendPipeline } from "./append-pipeline.js";
import { mapStorageError } from "./map-storage-error.js";
import type { PartitionState } from "./partition-state.js";
import { planAppendGroup } from "./plan-append-group.js";
import type { Group, ProduceHost } from "./produce-host.js";
import { failedOutcome } from "./produce-outcomes.js";
import { ProduceQueue } from "./produce-queue.js";
import { ProduceTicket } from "./produce-ticket.js";
import { type AppendOutcome, settleAppendGroup } from "./settle-append-group.js";

/** The append order, the append loop and the in-flight groups of one partition. */
export class PartitionProducer {
  readonly #host: ProduceHost;
  readonly #queue = new ProduceQueue();
  #draining = false;
  #drainRun: Promise<void> | undefined;
  readonly #pipeline = new AppendPipeline<PartitionState>();
  /** Resolves when every launched group's outcome has been handled (groups are handled in launch order). */
  #settling: Promise<void> = Promise.resolve();
  #wakeUp: (() => void) | undefined;

  constructor(host: ProduceHost) {
    this.#host = host;
  }

  /** True when no ticket is queued and no append loop runs. */
  get idle(): boolean {
    return this.#queue.length === 0 && !this.#draining;
  }

  /** Reserves the next place in this partition's append order (synchronous; see ProduceTicket). */
  reserve(): ProduceTicket {
    const ticket = new ProduceTicket(() => this.drain());
    this.#queue.push(ticket);
    return ticket;
  }

  /**
   * Resolves once no append loop is running and no append is in flight (queued batches behind an unresolved
   * ticket are not waited for).
   */
  async settled(): Promise<void> {
    while (this.#drainRun !== undefined) await this.#drainRun;
  }

  /** Runs the append loop, or wakes it when it runs. */
  drain(): void {
    if (this.#draining) {
      this.#wake();
      return;
    }
    this.#draining = true;
    this.#drainRun = this.#drainLoop()
      .catch((error: unknown) =>
        this.#host.context.logger.error("partition append loop failed", {
          topic: this.#host.topicName,
          partition: this.#host.partition,
          error: String(error),
        }),
      )
      .finally(() => {
        this.#draining = false;
        this.#drainRun = undefined;
        if (this.#queue.headResolved) this.drain();
        else this.#host.maybeIdle();
      });
  }

  /** Wakes the append loop when it waits for a submission or for a group to settle. */
  #wake(): void {
    const wakeUp = this.#wakeUp;
    this.#wakeUp = undefined;
    wakeUp?.();
  }

  /** Starts groups while the pipeline accepts them; returns once nothing startable is queued and nothing is in flight. */
  async #drainLoop(): Promise<void> {
    for (;;) {
      const tickets = this.#takeGroup();
      if (tickets !== undefined) {
        await this.#startGroup(tickets);
        continue;
      }
      if (this.#pipeline.size === 0) return;
      await new Promise<void>((resolve) => {
        this.#wakeUp = resolve;
      });
    }
  }

  /**
   * Takes the tickets that make the next group, if the pipeline accepts one: it has room, and with a group in flight
   * at least `pipelinedAppendMinBytes` wait (fewer wait for the one in flight and merge into one group after it).
   */
  #takeGroup(): ProduceTicket[] | undefined {
    return this.#queue.take(
      this.#host.context,
      (topicId, bytes) =>
        this.#pipeline.accepts(this.#host.loadedState(), topicId, this.#host.context.maxInFlightAppends) &&
        (this.#pipeline.size === 0 || bytes() >= this.#host.context.pipelinedAppendMinBytes),
    );
  }

  /** Plans `tickets` against the projection and issues their append (without waiting for it). */
  async #startGroup(tickets: readonly ProduceTicket[]): Promise<void> {
    const topic = tickets[0]?.submission?.topic;
    if (topic === undefined) return;
    // With groups in flight, `#takeGroup` checked that the loaded state is theirs: no await, nothing can change.
    let state = this.#pipeline.size > 0 ? this.#host.loadedState() : undefined;
    if (state === undefined) {
      try {
        state = await this.#host.ensureLoaded(topic);
      } catch (error) {
        const mapped = mapStorageError(error);
        for (const ticket of tickets) ticket.complete(failedOutcome(mapped));
        return;
      }
    }
    if (state.fence !== undefined) {
      for (const ticket of tickets) {
        ticket.complete({
          kind: "failed",
          errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER,
          message: "the partition is recovering an uncertain append",
        });
      }
      return;
    }
    const plan = planAppendGroup(tickets, state, this.#pipeline, topic, this.#host.context.clock());
    for (let count = 0; count < plan.duplicates; count += 1) this.#host.context.events.duplicate();
    for (const answer of plan.answers) answer.ticket.complete(answer.outcome);
    if (plan.group !== undefined) this.#launch(plan.group);
  }

  /**
   * Issues the group's append right away, expecting it to start at the projected end, and handles its outcome
   * only after every group ahead of it has been handled (whatever order the appends resolve in).
   */
  #launch(group: Group): void {
    const context = this.#host.context;
    this.#pipeline.add(group);
    let append: Promise<AppendOutcome>;
    try {
      append = context.store
        .append(
          group.state.streamId,
          { payloadFormat: "KAFKA_RECORD_BATCH", entries: group.entries, handOverPayloads: true },
          { expectedStartOffset: group.expectedStart, signal: context.closing },
        )
        .then(
          (result): AppendOutcome => ({ ok: true, result }),
          (error: unknown): AppendOutcome => ({ ok: false, error }),
        );
    } catch (error) {
      append = Promise.resolve({ ok: false, error });
    }
    this.#settling = this.#settling
      .then(() => append)
      .then((outcome) => {
        try {
          settleAppendGroup(this.#host, this.#pipeline, group, outcome);
        } catch (error) {
          context.logger.error("settling an append failed", {
            topic: this.#host.topicName,
            partition: this.#host.partition,
            error: String(error),
          });
        } finally {
          this.#pipeline.settle(group);
          this.#wake();
        }
      });
  }
}
