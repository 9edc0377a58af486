// The producers of one connection: PRODUCER opens one on a topic (created on first use) and answers
// PRODUCER_SUCCESS with its name (assigned when the client sent none); SEND checks the checksum, stores the entry
// byte-exact through the topic's managed ledger and answers SEND_RECEIPT with the entry's MessageId, or
// SEND_ERROR — per producer strictly in send order, whatever settles first; CLOSE_PRODUCER answers SUCCESS once
// the producer's earlier sends were answered.
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import { messageIdOfPosition } from "../ledger/position.js";
import {
  type CommandCloseProducer,
  type CommandProducer,
  type CommandSend,
  type FramePayload,
  ServerError,
} from "../protocol/index.js";
import type { ConnectionIo } from "./connection-io.js";
import { errorCommand, errorReplyOf } from "./error-replies.js";

interface OpenProducer {
  readonly name: string;
  readonly topic: string;
  readonly ledger: ManagedLedger;
  /** Settles once every answer to the producer's sends so far was written. */
  tail: Promise<void>;
}

/** Producers by their client-chosen id. */
export class ConnectionProducers {
  readonly #io: ConnectionIo;
  readonly #producers = new Map<bigint, OpenProducer>();

  constructor(io: ConnectionIo) {
    this.#io = io;
  }

  async open(command: CommandProducer): Promise<void> {
    const { requestId, producerId } = command;
    const existing = this.#producers.get(producerId);
    if (existing !== undefined) {
      this.#io.send({
        type: "PRODUCER_SUCCESS",
        body: { requestId, producerName: existing.name, lastSequenceId: -1n },
      });
      return;
    }
    let ledger: ManagedLedger;
    try {
      ledger = await this.#io.context.ledgers.open(command.topic);
    } catch (error) {
      this.#io.send(errorCommand(requestId, errorReplyOf(error)));
      return;
    }
    const name = command.producerName ?? this.#io.context.nextProducerName();
    this.#producers.set(producerId, { name, topic: ledger.name, ledger, tail: Promise.resolve() });
    this.#io.send({
      type: "PRODUCER_SUCCESS",
      body: { requestId, producerName: name, lastSequenceId: -1n, producerReady: true },
    });
  }

  /**
   * Handles one SEND. Returns false for a SEND the connection cannot answer (an unknown producer, no payload): the
   * caller closes the connection.
   */
  send(command: CommandSend, payload: FramePayload | undefined): boolean {
    const producer = this.#producers.get(command.producerId);
    if (producer === undefined || payload === undefined) return false;
    const { producerId, sequenceId } = command;
    const highestSequenceId = command.highestSequenceId;
    const answer: Promise<() => void> = !payload.checksumMatches
      ? Promise.resolve(() =>
          this.#io.send({
            type: "SEND_ERROR",
            body: { producerId, sequenceId, error: ServerError.ChecksumError, message: "checksum mismatch" },
          }),
        )
      : producer.ledger.addEntry(payload.entry).then(
          ({ position }) =>
            () =>
              this.#io.send({
                type: "SEND_RECEIPT",
                body: {
                  producerId,
                  sequenceId,
                  messageId: messageIdOfPosition(position),
                  ...(highestSequenceId === undefined ? {} : { highestSequenceId }),
                },
              }),
          (error: unknown) => {
            const reply = errorReplyOf(error);
            return () =>
              this.#io.send({
                type: "SEND_ERROR",
                body: { producerId, sequenceId, error: reply.error, message: reply.message },
              });
          },
        );
    producer.tail = producer.tail.then(async () => (await answer)());
    return true;
  }

  close(command: CommandCloseProducer): void {
    const producer = this.#producers.get(command.producerId);
    this.#producers.delete(command.producerId);
    const done = producer?.tail ?? Promise.resolve();
    void done.then(() => this.#io.send({ type: "SUCCESS", body: { requestId: command.requestId } }));
  }

  /** Forgets every producer (the connection closed). */
  closeAll(): void {
    this.#producers.clear();
  }
}
