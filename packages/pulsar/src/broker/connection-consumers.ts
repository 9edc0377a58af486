// The consumers of one connection: SUBSCRIBE attaches one to a durable subscription (shared with the broker's other
// connections) or to a reader of its own, deliveries go out as MESSAGE frames carrying the stored entry verbatim,
// and FLOW, ACK (ACK_RESPONSE when the client asked), REDELIVER_UNACKNOWLEDGED_MESSAGES, SEEK,
// GET_LAST_MESSAGE_ID, UNSUBSCRIBE and CLOSE_CONSUMER act on the consumer's subscription. Consumer ids are the
// client's and unique on its connection only: the subscription knows each consumer by a key unique in the process. A consumer the
// subscription disconnects (seek, broker shutdown) gets CLOSE_CONSUMER, after which the client subscribes again.
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import { ledgerEntrySource } from "../ledger/ledger-entry-source.js";
import { messageIdOfPosition, positionOfMessageId } from "../ledger/position.js";
import { parseEntryMetadata } from "../entries/entry-metadata.js";
import { parseTopicName } from "../topics/topic-name.js";
import {
  type CommandAck,
  type CommandCloseConsumer,
  type CommandFlow,
  type CommandGetLastMessageId,
  type CommandRedeliverUnacknowledgedMessages,
  type CommandSeek,
  type CommandSubscribe,
  type CommandUnsubscribe,
  InitialPosition,
  type MessageIdData,
  ProtocolVersion,
  ServerError,
} from "../protocol/index.js";
import { openReaderSubscription } from "../subscriptions/open-subscription.js";
import type { Subscription } from "../subscriptions/subscription.js";
import type { Delivery, SeekTarget, SubscriptionType } from "../subscriptions/subscription-types.js";
import { ackRequestOf, batchOf, redeliveryOffsetsOf, wireAckSet } from "./ack-requests.js";
import type { ConnectionIo } from "./connection-io.js";
import { type ErrorReply, errorCommand, errorReplyOf } from "./error-replies.js";

const SUBSCRIPTION_TYPES: readonly SubscriptionType[] = ["Exclusive", "Shared", "Failover", "Key_Shared"];
/** The request id of a command the broker sends on its own (-1 as the unsigned field carries it). */
const BROKER_REQUEST_ID = 2n ** 64n - 1n;

interface OpenConsumer {
  /** The id the client chose (unique on this connection only). */
  readonly consumerId: bigint;
  /** The id the subscription knows the consumer by (unique in this process: clients reuse their ids). */
  readonly key: bigint;
  readonly subscriptionName: string;
  readonly ledger: ManagedLedger;
  readonly subscription: Subscription;
  readonly durable: boolean;
  /** The topic's partition index, or undefined when it is not a partition. */
  readonly partition: number | undefined;
}

/** Consumers by their client-chosen id. */
export class ConnectionConsumers {
  readonly #io: ConnectionIo;
  readonly #consumers = new Map<bigint, OpenConsumer>();

  constructor(io: ConnectionIo) {
    this.#io = io;
  }

  async subscribe(command: CommandSubscribe): Promise<void> {
    const { requestId, consumerId } = command;
    const existing = this.#consumers.get(consumerId);
    if (existing !== undefined) {
      const same =
        existing.subscriptionName === command.subscription &&
        existing.ledger.name === parseTopicName(command.topic).fullName;
      this.#io.send(same ? { type: "SUCCESS", body: { requestId } } : errorCommand(requestId, busy(consumerId)));
      return;
    }
    const type = SUBSCRIPTION_TYPES[command.subType];
    if (type === undefined) {
      const reply = {
        error: ServerError.NotAllowedError,
        message: `unknown subscription type ${String(command.subType)}`,
      };
      this.#io.send(errorCommand(requestId, reply));
      return;
    }
    try {
      const ledger = await this.#io.context.ledgers.open(command.topic, {
        create: command.forceTopicCreation !== false,
      });
      const durable = command.durable !== false;
      const subscription = await this.#openSubscription(ledger, command, durable);
      if (this.#io.closed) {
        // The connection closed while the subscription opened: attaching now would leave a consumer nobody detaches.
        if (!durable) void subscription.close();
        return;
      }
      const partitionIndex = parseTopicName(ledger.name).partitionIndex;
      const consumer: OpenConsumer = {
        consumerId,
        key: nextConsumerKey(),
        subscriptionName: command.subscription,
        ledger,
        subscription,
        durable,
        partition: partitionIndex < 0 ? undefined : partitionIndex,
      };
      this.#consumers.set(consumerId, consumer);
      try {
        subscription.addConsumer({
          consumerId: consumer.key,
          consumerName: command.consumerName ?? "",
          type,
          priorityLevel: command.priorityLevel ?? 0,
          epoch: command.consumerEpoch ?? 0n,
          listener: {
            deliver: (delivery) => this.#deliver(consumer, delivery),
            activeChanged: (active) => {
              if (this.#io.protocolVersion >= ProtocolVersion.LAST_MESSAGE_ID)
                this.#io.send({ type: "ACTIVE_CONSUMER_CHANGE", body: { consumerId, isActive: active } });
            },
            disconnected: () => this.#disconnected(consumer),
          },
        });
      } catch (error) {
        this.#consumers.delete(consumerId);
        if (!durable) void subscription.close();
        throw error;
      }
      this.#io.send({ type: "SUCCESS", body: { requestId } });
    } catch (error) {
      this.#io.send(errorCommand(requestId, errorReplyOf(error)));
    }
  }

  flow(command: CommandFlow): void {
    const consumer = this.#consumers.get(command.consumerId);
    if (consumer === undefined) return;
    try {
      consumer.subscription.flow(consumer.key, command.messagePermits);
    } catch (error) {
      this.#io.context.onError(error);
    }
  }

  ack(command: CommandAck): void {
    const { consumerId, requestId } = command;
    const respond = (reply?: ErrorReply): void => {
      if (requestId === undefined) {
        if (reply !== undefined) this.#io.context.onError(new Error(`ack of consumer ${consumerId}: ${reply.message}`));
        return;
      }
      const failure = reply === undefined ? {} : { error: reply.error, message: reply.message };
      this.#io.send({ type: "ACK_RESPONSE", body: { consumerId, requestId, ...failure } });
    };
    const consumer = this.#consumers.get(consumerId);
    if (consumer === undefined) {
      respond({ error: ServerError.ConsumerNotFound, message: `consumer ${consumerId} is not connected` });
      return;
    }
    let request;
    try {
      request = ackRequestOf(consumer.ledger, command);
    } catch (error) {
      respond(errorReplyOf(error));
      return;
    }
    if (request === undefined) {
      respond();
      return;
    }
    consumer.subscription.acknowledge(consumer.key, request).then(
      () => respond(),
      (error: unknown) => respond(errorReplyOf(error)),
    );
  }

  redeliver(command: CommandRedeliverUnacknowledgedMessages): void {
    const consumer = this.#consumers.get(command.consumerId);
    if (consumer === undefined) return;
    const ids = command.messageIds ?? [];
    try {
      consumer.subscription.redeliver(consumer.key, {
        ...(ids.length === 0 ? {} : { offsets: redeliveryOffsetsOf(consumer.ledger, ids) }),
        ...(command.consumerEpoch === undefined ? {} : { epoch: command.consumerEpoch }),
      });
    } catch (error) {
      this.#io.context.onError(error);
    }
  }

  async seek(command: CommandSeek): Promise<void> {
    const { requestId } = command;
    const consumer = this.#require(command.consumerId, requestId);
    if (consumer === undefined) return;
    try {
      let target: SeekTarget;
      if (command.messageId !== undefined) {
        target = seekTargetOf(consumer.ledger, command.messageId);
      } else if (command.messagePublishTime !== undefined) {
        target = { publishTime: Number(command.messagePublishTime) };
      } else {
        this.#io.send(
          errorCommand(requestId, { error: ServerError.NotAllowedError, message: "seek without a target" }),
        );
        return;
      }
      await consumer.subscription.seek(target);
      this.#io.send({ type: "SUCCESS", body: { requestId } });
    } catch (error) {
      this.#io.send(errorCommand(requestId, errorReplyOf(error)));
    }
  }

  async lastMessageId(command: CommandGetLastMessageId): Promise<void> {
    const { requestId } = command;
    const consumer = this.#require(command.consumerId, requestId);
    if (consumer === undefined) return;
    try {
      const { ledger, subscription, partition } = consumer;
      const last = ledger.lastConfirmedEntry();
      let batchIndex: number | undefined;
      if (last.entryId >= 0n) {
        const [entry] = (await ledger.readEntries(Number(last.entryId), { maxEntries: 1 })).entries;
        const described = entry === undefined ? undefined : parseEntryMetadata(entry.payload);
        if (described?.isBatch === true) batchIndex = described.numberOfMessages - 1;
      }
      const markDelete = ledger.positions.positionOf(subscription.markDeleteOffset - 1);
      this.#io.send({
        type: "GET_LAST_MESSAGE_ID_RESPONSE",
        body: {
          requestId,
          lastMessageId: {
            ...messageIdOfPosition(last),
            ...(partition === undefined ? {} : { partition }),
            ...(batchIndex === undefined ? {} : { batchIndex }),
          },
          consumerMarkDeletePosition: messageIdOfPosition(markDelete),
        },
      });
    } catch (error) {
      this.#io.send(errorCommand(requestId, errorReplyOf(error)));
    }
  }

  async unsubscribe(command: CommandUnsubscribe): Promise<void> {
    const { requestId, consumerId } = command;
    const consumer = this.#require(consumerId, requestId);
    if (consumer === undefined) return;
    try {
      if (consumer.durable) {
        await consumer.subscription.unsubscribe(consumer.key);
        this.#io.context.subscriptions.forget(consumer.ledger.name, consumer.subscriptionName, consumer.subscription);
      } else {
        await consumer.subscription.close();
      }
      this.#consumers.delete(consumerId);
      this.#io.send({ type: "SUCCESS", body: { requestId } });
    } catch (error) {
      this.#io.send(errorCommand(requestId, errorReplyOf(error)));
    }
  }

  closeConsumer(command: CommandCloseConsumer): void {
    const consumer = this.#consumers.get(command.consumerId);
    if (consumer !== undefined) this.#detach(consumer);
    this.#io.send({ type: "SUCCESS", body: { requestId: command.requestId } });
  }

  /** Detaches every consumer (the connection closed): their unacknowledged entries go to other consumers. */
  closeAll(): void {
    for (const consumer of [...this.#consumers.values()]) this.#detach(consumer);
  }

  #detach(consumer: OpenConsumer): void {
    this.#consumers.delete(consumer.consumerId);
    try {
      consumer.subscription.removeConsumer(consumer.key);
      if (!consumer.durable) void consumer.subscription.close();
    } catch (error) {
      this.#io.context.onError(error);
    }
  }

  #require(consumerId: bigint, requestId: bigint): OpenConsumer | undefined {
    const consumer = this.#consumers.get(consumerId);
    if (consumer === undefined) {
      const reply = { error: ServerError.ConsumerNotFound, message: `consumer ${consumerId} is not connected` };
      this.#io.send(errorCommand(requestId, reply));
    }
    return consumer;
  }

  async #openSubscription(ledger: ManagedLedger, command: CommandSubscribe, durable: boolean): Promise<Subscription> {
    const initial = command.initialPosition === InitialPosition.Earliest ? "earliest" : "latest";
    if (durable) return this.#io.context.subscriptions.open(ledger, command.subscription, initial);
    const start =
      command.startMessageId === undefined
        ? initial
        : ledger.positions.seekOffset(positionOfMessageId(command.startMessageId), ledger.bounds());
    return openReaderSubscription({
      name: command.subscription,
      source: ledgerEntrySource(ledger),
      start,
      options: { permitOverdraft: true, onError: this.#io.context.onError },
    });
  }

  #deliver(consumer: OpenConsumer, delivery: Delivery): void {
    const { entry } = delivery;
    this.#io.context.messageCounters.recordOut(consumer.ledger.name, delivery.permits, entry.bytes.length);
    const messageId: MessageIdData = {
      ...messageIdOfPosition(consumer.ledger.positions.positionOf(entry.offset)),
      ...(consumer.partition === undefined ? {} : { partition: consumer.partition }),
    };
    this.#io.sendWithEntry(
      {
        type: "MESSAGE",
        body: {
          consumerId: consumer.consumerId,
          messageId,
          ...(delivery.redeliveryCount === 0 ? {} : { redeliveryCount: delivery.redeliveryCount }),
          ...(delivery.ackSet === undefined ? {} : { ackSet: wireAckSet(delivery.ackSet) }),
          consumerEpoch: delivery.epoch,
        },
      },
      entry.bytes,
    );
  }

  /** The subscription removed the consumer (seek, shutdown): the client is told to subscribe again. */
  #disconnected(consumer: OpenConsumer): void {
    if (this.#consumers.get(consumer.consumerId) !== consumer) return;
    this.#consumers.delete(consumer.consumerId);
    this.#io.send({ type: "CLOSE_CONSUMER", body: { consumerId: consumer.consumerId, requestId: BROKER_REQUEST_ID } });
  }
}

/**
 * Where a SEEK to `id` lands: the entry it names (clamped into the ledger); with an ack set (a seek into a batch),
 * the batch indexes it clears count as acknowledged.
 */
function seekTargetOf(ledger: ManagedLedger, id: MessageIdData): SeekTarget {
  const position = positionOfMessageId(id);
  const bounds = ledger.bounds();
  const offset = ledger.positions.seekOffset(position, bounds);
  const partial = BigInt(offset) === position.entryId && offset < bounds.committedEndOffset ? batchOf(id) : undefined;
  return partial === undefined ? { offset } : { offset, partial };
}

let consumerKeys = 0n;

/** A consumer key no other consumer of this process was given. */
function nextConsumerKey(): bigint {
  consumerKeys += 1n;
  return consumerKeys;
}

function busy(consumerId: bigint): ErrorReply {
  return { error: ServerError.ConsumerBusy, message: `consumer ${consumerId} is already subscribed elsewhere` };
}
