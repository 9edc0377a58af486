// The producers of one connection. PRODUCER opens one on a topic (created on first use): the topic's deduplication
// policy is looked up (its state recovered from storage when on), the producer joins the broker-wide registry under
// its access mode (ProducerBusy / ProducerFenced refusals, a queued WaitForExclusive producer answered
// producerReady=false and again once it gets the topic), and PRODUCER_SUCCESS carries its name (assigned when the
// client sent none), the last sequence id deduplication knows for that name and the topic epoch. SEND is checked
// (producer ready, checksum, metadata, size, message count), judged by deduplication when the topic has it (a
// duplicate is answered SEND_RECEIPT without being stored, with MessageId -1:-1 unless this broker saw the original
// stored), stored byte-exact through the topic's managed ledger and answered SEND_RECEIPT or SEND_ERROR — per
// producer strictly in send order, whatever settles first. CLOSE_PRODUCER answers SUCCESS once the producer's earlier
// sends were answered. A producer fenced by another's ExclusiveWithFencing gets CLOSE_PRODUCER (or, still queued,
// ERROR(ProducerFenced)); SENDs already on their way for it are dropped.
import type { TopicDeduplication } from "../dedup/topic-deduplication.js";
import type { DedupOutcome } from "../dedup/topic-deduplication.js";
import { trackedSequenceOf } from "../dedup/tracked-sequence.js";
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import { type Position, messageIdOfPosition } from "../ledger/position.js";
import {
  type CommandCloseProducer,
  type CommandProducer,
  type CommandSend,
  type FramePayload,
  type MessageIdData,
  ProducerAccessMode,
  ServerError,
} from "../protocol/index.js";
import type { ConnectionIo } from "./connection-io.js";
import { type ErrorReply, errorCommand, errorReplyOf } from "./error-replies.js";
import { checkSend } from "./producer-send-checks.js";
import type { TopicProducerMember } from "./topic-producers.js";

/** Request id of commands the broker sends on its own (Pulsar's -1 as an unsigned 64-bit value). */
const BROKER_REQUEST_ID = 2n ** 64n - 1n;

/** The MessageId of a duplicate whose original this broker did not see stored: (-1, -1), as Pulsar answers it. */
const DUPLICATE_MESSAGE_ID: MessageIdData = { ledgerId: 2n ** 64n - 1n, entryId: 2n ** 64n - 1n };

interface OpenProducer {
  readonly producerId: bigint;
  /** The PRODUCER request (answered again when a queued producer gets the topic). */
  readonly requestId: bigint;
  readonly name: string;
  readonly ledger: ManagedLedger;
  /** The topic's deduplication state when the producer opened (told when the producer detaches). */
  readonly deduplication: TopicDeduplication | undefined;
  readonly member: TopicProducerMember;
  /** The schema version PRODUCER_SUCCESS announces (the producer's registered schema), if any. */
  readonly schemaVersion: Uint8Array | undefined;
  /** False while a WaitForExclusive producer is queued. */
  ready: boolean;
  topicEpoch: bigint | undefined;
  /** Settles once every answer to the producer's sends so far was written. */
  tail: Promise<void>;
}

/** Producers by their client-chosen id. */
export class ConnectionProducers {
  readonly #io: ConnectionIo;
  readonly #producers = new Map<bigint, OpenProducer>();
  /** Ids of producers the broker closed (fenced): SENDs already on their way for them are dropped. */
  readonly #closedByBroker = new Set<bigint>();

  constructor(io: ConnectionIo) {
    this.#io = io;
  }

  /** Opens the producer of PRODUCER `command`; `schemaVersion` is the version of its schema, already registered. */
  async open(command: CommandProducer, schemaVersion?: Uint8Array): Promise<void> {
    const { requestId, producerId } = command;
    const existing = this.#producers.get(producerId);
    if (existing !== undefined) return this.#answerRepeatedOpen(existing, requestId);
    let ledger: ManagedLedger;
    let deduplication: TopicDeduplication | undefined;
    try {
      ledger = await this.#io.context.ledgers.open(command.topic);
      deduplication = await this.#deduplication(ledger);
    } catch (error) {
      this.#io.send(errorCommand(requestId, errorReplyOf(error)));
      return;
    }
    if (this.#io.closed) return;
    this.#closedByBroker.delete(producerId);
    const name = command.producerName ?? this.#io.context.nextProducerName();
    const producer: OpenProducer = {
      producerId,
      requestId,
      name,
      ledger,
      deduplication,
      member: {
        name,
        accessMode: command.producerAccessMode ?? ProducerAccessMode.Shared,
        topicEpoch: command.topicEpoch,
        fenced: () => this.#fenced(producer),
        promoted: (topicEpoch) => void this.#promoted(producer, topicEpoch),
      },
      schemaVersion,
      ready: false,
      topicEpoch: undefined,
      tail: Promise.resolve(),
    };
    const outcome = this.#io.context.producers.attach(ledger.name, producer.member);
    if (outcome.kind === "refused") {
      this.#io.send(errorCommand(requestId, outcome));
      return;
    }
    this.#producers.set(producerId, producer);
    deduplication?.producerAttached(name);
    producer.ready = outcome.kind === "attached";
    producer.topicEpoch = outcome.kind === "attached" ? outcome.topicEpoch : undefined;
    this.#answerOpen(producer, requestId, deduplication?.lastSequenceId(name) ?? -1n);
  }

  /**
   * Handles one SEND; `answered` runs once its answer was written (or it was dropped). Returns false for a SEND the
   * connection cannot answer (an unknown producer, no payload), without calling `answered`: the caller closes the
   * connection.
   */
  send(command: CommandSend, payload: FramePayload | undefined, answered: () => void): boolean {
    const producer = this.#producers.get(command.producerId);
    if (producer === undefined && this.#closedByBroker.has(command.producerId)) {
      this.#io.forgetReply();
      answered();
      return true;
    }
    if (producer === undefined || payload === undefined) return false;
    const answer = this.#publish(producer, command, payload);
    producer.tail = producer.tail.then(async () => {
      try {
        (await answer)();
      } finally {
        answered();
      }
    });
    return true;
  }

  close(command: CommandCloseProducer): void {
    const producer = this.#producers.get(command.producerId);
    if (producer !== undefined) this.#detach(producer);
    const done = producer?.tail ?? Promise.resolve();
    void done.then(() => this.#io.send({ type: "SUCCESS", body: { requestId: command.requestId } }));
  }

  /** Forgets every producer (the connection closed). */
  closeAll(): void {
    for (const producer of [...this.#producers.values()]) this.#detach(producer);
    this.#closedByBroker.clear();
  }

  /**
   * The deduplication state of `ledger`'s topic, brought up to date, when its policy enables deduplication; else the
   * topic's state, if any, is dropped.
   */
  async #deduplication(ledger: ManagedLedger): Promise<TopicDeduplication | undefined> {
    const { context } = this.#io;
    if (!(await context.deduplicationEnabled(ledger.name))) {
      await context.deduplication.disable(ledger);
      return undefined;
    }
    const state = await context.deduplication.enable(ledger, context.producers.attachedNames(ledger.name));
    // The last sequence id the producer is told should reflect what is committed, when that can be known now.
    await state.refresh().catch((error: unknown) => context.onError(error));
    return state;
  }

  /** What a SEND gets: stored (or recognised as a duplicate) and receipted, or refused. */
  #publish(producer: OpenProducer, command: CommandSend, payload: FramePayload): Promise<() => void> {
    if (!producer.ready) {
      const message = `producer ${producer.name} is waiting for exclusive access to ${producer.ledger.name}`;
      return Promise.resolve(() => this.#sendError(command, { error: ServerError.NotAllowedError, message }));
    }
    const check = checkSend(command, payload, this.#io.context.maxMessageBytes);
    if (!check.ok) return Promise.resolve(() => this.#sendError(command, check.reply));
    const append = (): ReturnType<ManagedLedger["addEntry"]> => producer.ledger.addEntry(payload.entry);
    const deduplication = this.#io.context.deduplication.of(producer.ledger);
    const outcome: Promise<DedupOutcome> =
      deduplication === undefined
        ? append().then(({ position }) => ({ kind: "stored", position }))
        : deduplication.then((state) => state.send(trackedSequenceOf(check.entry), append));
    return outcome.then(
      ({ kind, position }) => {
        if (kind === "stored") {
          this.#io.context.messageCounters.recordIn(
            producer.ledger.name,
            check.entry.numberOfMessages,
            payload.entry.length,
          );
        }
        return () => this.#receipt(command, position);
      },
      (error: unknown) => {
        const reply = errorReplyOf(error);
        return () => this.#sendError(command, reply);
      },
    );
  }

  #receipt(command: CommandSend, position: Position | undefined): void {
    const { producerId, sequenceId, highestSequenceId } = command;
    this.#io.send({
      type: "SEND_RECEIPT",
      body: {
        producerId,
        sequenceId,
        messageId: position === undefined ? DUPLICATE_MESSAGE_ID : messageIdOfPosition(position),
        ...(highestSequenceId === undefined ? {} : { highestSequenceId }),
      },
    });
  }

  /** SEND_ERROR names a batch by its highest sequence id: clients match it against the last message they sent. */
  #sendError(command: CommandSend, reply: ErrorReply): void {
    const { producerId, sequenceId, highestSequenceId } = command;
    const last = highestSequenceId !== undefined && highestSequenceId > sequenceId ? highestSequenceId : sequenceId;
    this.#io.send({
      type: "SEND_ERROR",
      body: { producerId, sequenceId: last, error: reply.error, message: reply.message },
    });
  }

  #answerOpen(producer: OpenProducer, requestId: bigint, lastSequenceId: bigint): void {
    this.#io.send({
      type: "PRODUCER_SUCCESS",
      body: {
        requestId,
        producerName: producer.name,
        lastSequenceId,
        ...(producer.schemaVersion === undefined ? {} : { schemaVersion: producer.schemaVersion }),
        ...(producer.topicEpoch === undefined ? {} : { topicEpoch: producer.topicEpoch }),
        producerReady: producer.ready,
      },
    });
  }

  /** A PRODUCER for an id already open on this connection: the same producer again, unless it is still queued. */
  async #answerRepeatedOpen(producer: OpenProducer, requestId: bigint): Promise<void> {
    if (!producer.ready) {
      const message = `producer ${producer.name} is already waiting for exclusive access on this connection`;
      this.#io.send(errorCommand(requestId, { error: ServerError.ServiceNotReady, message }));
      return;
    }
    this.#answerOpen(producer, requestId, await this.#lastSequenceId(producer));
  }

  async #lastSequenceId(producer: OpenProducer): Promise<bigint> {
    const state = await this.#io.context.deduplication.of(producer.ledger)?.catch(() => undefined);
    return state?.lastSequenceId(producer.name) ?? -1n;
  }

  #detach(producer: OpenProducer): void {
    this.#producers.delete(producer.producerId);
    this.#io.context.producers.detach(producer.ledger.name, producer.member);
    producer.deduplication?.producerDetached(producer.name);
  }

  /** Another producer took the topic with ExclusiveWithFencing (the registry already dropped this one). */
  #fenced(producer: OpenProducer): void {
    if (this.#producers.get(producer.producerId) !== producer) return;
    this.#producers.delete(producer.producerId);
    producer.deduplication?.producerDetached(producer.name);
    this.#closedByBroker.add(producer.producerId);
    if (!producer.ready) {
      const message = `producer ${producer.name} was fenced by an ExclusiveWithFencing producer`;
      this.#io.expectReply(); // a second answer to the PRODUCER request, after PRODUCER_SUCCESS(producerReady=false)
      this.#io.send(errorCommand(producer.requestId, { error: ServerError.ProducerFenced, message }));
      return;
    }
    void producer.tail.then(() =>
      this.#io.send({
        type: "CLOSE_PRODUCER",
        body: { producerId: producer.producerId, requestId: BROKER_REQUEST_ID },
      }),
    );
  }

  /** A queued WaitForExclusive producer got the topic: its PRODUCER request is answered again, ready. */
  async #promoted(producer: OpenProducer, topicEpoch: bigint): Promise<void> {
    if (this.#producers.get(producer.producerId) !== producer) return;
    producer.ready = true;
    producer.topicEpoch = topicEpoch;
    const lastSequenceId = await this.#lastSequenceId(producer);
    this.#io.expectReply(); // a second answer to the PRODUCER request, after PRODUCER_SUCCESS(producerReady=false)
    this.#answerOpen(producer, producer.requestId, lastSequenceId);
  }
}
