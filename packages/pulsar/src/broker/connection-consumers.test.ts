// Consumers of a PulsarConnection driven in process over in-memory stores: SUBSCRIBE and FLOW deliver MESSAGE
// frames carrying the stored entries verbatim, ACK (with ACK_RESPONSE) moves the cursor, the cumulative ack of
// entry -1 is dropped, a batch-index ACK without a batch size (signed words, as the Java client sends it) acknowledges
// those indexes only, REDELIVER sends the unacknowledged message again, an Exclusive subscription refuses a second
// consumer, consumers of two connections may use the same consumer id, Failover partitions spread their active
// consumers, GET_LAST_MESSAGE_ID, SEEK, UNSUBSCRIBE and CLOSE_CONSUMER.
import { afterEach, describe, expect, test, vi } from "vitest";
import {
  AckType,
  InitialPosition,
  type MessageIdData,
  ServerError,
  SubscriptionType,
  encodeBatchPayload,
  encodeMessageEntry,
} from "../protocol/index.js";
import { BrokerHarness, type TestClient } from "../../test/broker-harness.js";

const TOPIC = "persistent://public/default/events";
const MINUS_ONE = 2n ** 64n - 1n;

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A batch entry of `size` messages. */
function batchEntry(sequenceId: number, size: number): Uint8Array {
  const messages = Array.from({ length: size }, (_, index) => ({
    metadata: {},
    payload: new TextEncoder().encode(`batch-${String(sequenceId)}-${String(index)}`),
  }));
  return encodeMessageEntry(
    { producerName: "p", sequenceId: BigInt(sequenceId), publishTime: 1_700_000_000_000n, numMessagesInBatch: size },
    encodeBatchPayload(messages),
  );
}

function entry(sequenceId: number): Uint8Array {
  return encodeMessageEntry(
    { producerName: "p", sequenceId: BigInt(sequenceId), publishTime: 1_700_000_000_000n + BigInt(sequenceId) },
    new TextEncoder().encode(`event-${String(sequenceId)}`),
  );
}

/** Publishes `count` entries through a producer connection; returns their bytes and message ids. */
async function publish(
  h: BrokerHarness,
  count: number,
  make: (index: number) => Uint8Array = entry,
  numMessages = 1,
): Promise<{ sent: Uint8Array[]; ids: MessageIdData[] }> {
  const producer = h.connect();
  await producer.handshake();
  producer.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 1n, requestId: 1n } });
  await producer.waitFor("PRODUCER_SUCCESS");
  const sent = Array.from({ length: count }, (_, index) => make(index));
  sent.forEach((bytes, index) =>
    producer.sendWithEntry({ type: "SEND", body: { producerId: 1n, sequenceId: BigInt(index), numMessages } }, bytes),
  );
  const receipts = await producer.waitFor("SEND_RECEIPT", count);
  return { sent, ids: receipts.map((receipt) => receipt.messageId as MessageIdData) };
}

async function subscribed(
  h: BrokerHarness,
  options: { consumerId?: bigint; subType?: number; subscription?: string; topic?: string; consumerName?: string } = {},
): Promise<TestClient> {
  const client = h.connect();
  await client.handshake();
  client.send({
    type: "SUBSCRIBE",
    body: {
      topic: options.topic ?? TOPIC,
      subscription: options.subscription ?? "sub",
      ...(options.consumerName === undefined ? {} : { consumerName: options.consumerName }),
      subType: options.subType ?? SubscriptionType.Exclusive,
      consumerId: options.consumerId ?? 1n,
      requestId: 100n,
      initialPosition: InitialPosition.Earliest,
    },
  });
  await client.waitFor("SUCCESS");
  return client;
}

async function markDeleteEntryId(client: TestClient, requestId: bigint): Promise<bigint | undefined> {
  client.send({ type: "GET_LAST_MESSAGE_ID", body: { consumerId: 1n, requestId } });
  await client.waitFor("GET_LAST_MESSAGE_ID_RESPONSE", Number(requestId - 200n) + 1);
  const response = client.commands("GET_LAST_MESSAGE_ID_RESPONSE").find((body) => body.requestId === requestId);
  return response?.consumerMarkDeletePosition?.entryId;
}

describe("ConnectionConsumers delivery", () => {
  test("SUBSCRIBE then FLOW delivers MESSAGE frames with the stored entries verbatim, as many as permitted", async () => {
    const h = (harness = new BrokerHarness());
    const { sent, ids } = await publish(h, 4);
    const client = await subscribed(h);
    expect(client.commands("SUCCESS")).toEqual([{ requestId: 100n }]);
    client.send({ type: "FLOW", body: { consumerId: 1n, messagePermits: 3 } });
    await client.waitFor("MESSAGE", 3);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const messages = client.frames("MESSAGE");
    expect(messages).toHaveLength(3);
    expect(messages.map((frame) => frame.payload?.entry)).toEqual(sent.slice(0, 3));
    expect(messages.every((frame) => frame.payload?.checksumMatches === true)).toBe(true);
    expect(client.commands("MESSAGE").map((body) => body.messageId)).toEqual(ids.slice(0, 3));
    expect(
      client.commands("MESSAGE").every((body) => body.consumerId === 1n && body.redeliveryCount === undefined),
    ).toBe(true);
    client.send({ type: "FLOW", body: { consumerId: 1n, messagePermits: 10 } });
    await client.waitFor("MESSAGE", 4);
    expect(client.frames("MESSAGE")[3]?.payload?.entry).toEqual(sent[3]);
  });

  test("an entry published after FLOW is delivered to the waiting consumer", async () => {
    const h = (harness = new BrokerHarness());
    const client = await subscribed(h);
    client.send({ type: "FLOW", body: { consumerId: 1n, messagePermits: 5 } });
    const { sent } = await publish(h, 2);
    await client.waitFor("MESSAGE", 2);
    expect(client.frames("MESSAGE").map((frame) => frame.payload?.entry)).toEqual(sent);
  });
});

describe("ConnectionConsumers acknowledgements", () => {
  test("ACK with a request id is answered ACK_RESPONSE and moves the cursor's mark-delete position", async () => {
    const h = (harness = new BrokerHarness());
    const { ids } = await publish(h, 3);
    const client = await subscribed(h);
    client.send({ type: "FLOW", body: { consumerId: 1n, messagePermits: 10 } });
    await client.waitFor("MESSAGE", 3);
    expect(await markDeleteEntryId(client, 200n)).toBe(MINUS_ONE);
    client.send({
      type: "ACK",
      body: { consumerId: 1n, ackType: AckType.Individual, messageId: [ids[0] as MessageIdData], requestId: 7n },
    });
    const [response] = await client.waitFor("ACK_RESPONSE");
    expect(response).toEqual({ consumerId: 1n, requestId: 7n });
    expect(await markDeleteEntryId(client, 201n)).toBe(0n);
    client.send({
      type: "ACK",
      body: { consumerId: 1n, ackType: AckType.Cumulative, messageId: [ids[2] as MessageIdData], requestId: 8n },
    });
    await client.waitFor("ACK_RESPONSE", 2);
    expect(client.commands("ACK_RESPONSE")[1]).toEqual({ consumerId: 1n, requestId: 8n });
    expect(await markDeleteEntryId(client, 202n)).toBe(2n);
  });

  test("the cumulative ack of entry -1 is dropped: answered without error, the cursor stays", async () => {
    const h = (harness = new BrokerHarness());
    const { ids } = await publish(h, 2);
    const client = await subscribed(h);
    const ledgerId = (ids[0] as MessageIdData).ledgerId;
    client.send({
      type: "ACK",
      body: {
        consumerId: 1n,
        ackType: AckType.Cumulative,
        messageId: [{ ledgerId, entryId: MINUS_ONE }],
        requestId: 3n,
      },
    });
    const [response] = await client.waitFor("ACK_RESPONSE");
    expect(response).toEqual({ consumerId: 1n, requestId: 3n });
    expect(await markDeleteEntryId(client, 200n)).toBe(MINUS_ONE);
  });

  test("an ACK of an unknown consumer is answered ACK_RESPONSE(ConsumerNotFound)", async () => {
    const h = (harness = new BrokerHarness());
    const { ids } = await publish(h, 1);
    const client = await subscribed(h);
    client.send({
      type: "ACK",
      body: { consumerId: 9n, ackType: AckType.Individual, messageId: [ids[0] as MessageIdData], requestId: 4n },
    });
    const [response] = await client.waitFor("ACK_RESPONSE");
    expect(response).toMatchObject({ consumerId: 9n, requestId: 4n, error: ServerError.ConsumerNotFound });
  });

  test("REDELIVER_UNACKNOWLEDGED_MESSAGES sends the unacknowledged message again with its redelivery count", async () => {
    const h = (harness = new BrokerHarness());
    const { sent, ids } = await publish(h, 2);
    const client = await subscribed(h, { subType: SubscriptionType.Shared });
    client.send({ type: "FLOW", body: { consumerId: 1n, messagePermits: 10 } });
    await client.waitFor("MESSAGE", 2);
    client.send({
      type: "ACK",
      body: { consumerId: 1n, ackType: AckType.Individual, messageId: [ids[0] as MessageIdData], requestId: 1n },
    });
    await client.waitFor("ACK_RESPONSE");
    client.send({
      type: "REDELIVER_UNACKNOWLEDGED_MESSAGES",
      body: { consumerId: 1n, messageIds: [ids[1] as MessageIdData] },
    });
    await client.waitFor("MESSAGE", 3);
    const again = client.frames("MESSAGE")[2];
    expect(again?.payload?.entry).toEqual(sent[1]);
    expect(client.commands("MESSAGE")[2]).toMatchObject({ messageId: ids[1], redeliveryCount: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.commands("MESSAGE")).toHaveLength(3);
  });
});

describe("ConnectionConsumers batch-index acknowledgements", () => {
  test("an ACK with an ack set and no batch size (as the Java client sends it) acknowledges only those indexes", async () => {
    const h = (harness = new BrokerHarness());
    const { ids } = await publish(h, 1, (index) => batchEntry(index, 70), 70);
    const client = await subscribed(h, { subType: SubscriptionType.Shared });
    client.send({ type: "FLOW", body: { consumerId: 1n, messagePermits: 100 } });
    await client.waitFor("MESSAGE");
    // Indexes 0, 2, 4, ... acknowledged: the remaining bits are the odd ones, in two words; on the wire the words
    // are signed (bit 63 set: negative).
    const odd = BigInt.asIntN(64, 0xaaaaaaaaaaaaaaaan);
    const ackSet = [odd, odd & 0b111111n];
    const id = ids[0] as MessageIdData;
    client.send({
      type: "ACK",
      body: { consumerId: 1n, ackType: AckType.Individual, messageId: [{ ...id, ackSet }], requestId: 7n },
    });
    expect((await client.waitFor("ACK_RESPONSE"))[0]).toEqual({ consumerId: 1n, requestId: 7n });
    client.send({ type: "REDELIVER_UNACKNOWLEDGED_MESSAGES", body: { consumerId: 1n } });
    await client.waitFor("MESSAGE", 2);
    expect(client.commands("MESSAGE")[1]).toMatchObject({ messageId: id, ackSet, redeliveryCount: 1 });
  });
});

describe("ConnectionConsumers of several connections", () => {
  test("consumers of two connections with the same consumer id share a Shared subscription", async () => {
    const h = (harness = new BrokerHarness());
    await publish(h, 4);
    const first = await subscribed(h, { subType: SubscriptionType.Shared });
    const second = await subscribed(h, { subType: SubscriptionType.Shared });
    expect(second.commands("SUCCESS")).toEqual([{ requestId: 100n }]);
    first.send({ type: "FLOW", body: { consumerId: 1n, messagePermits: 2 } });
    second.send({ type: "FLOW", body: { consumerId: 1n, messagePermits: 2 } });
    await first.waitFor("MESSAGE", 2);
    await second.waitFor("MESSAGE", 2);
    const entryIds = [...first.commands("MESSAGE"), ...second.commands("MESSAGE")].map(
      (body) => body.messageId.entryId,
    );
    expect(entryIds.sort()).toEqual([0n, 1n, 2n, 3n]);
    second.send({ type: "CLOSE_CONSUMER", body: { consumerId: 1n, requestId: 9n } });
    await second.waitFor("SUCCESS", 2);
    first.send({ type: "FLOW", body: { consumerId: 1n, messagePermits: 2 } });
    await first.waitFor("MESSAGE", 4);
  });

  test("Failover on partitions: partition p's active consumer is consumer p mod 2 in name order", async () => {
    const h = (harness = new BrokerHarness());
    const clients: [string, TestClient][] = [];
    for (const partition of [0, 1, 2, 3]) {
      for (const name of ["c1", "c0"]) {
        const topic = `${TOPIC}-partition-${String(partition)}`;
        const client = await subscribed(h, { topic, subType: SubscriptionType.Failover, consumerName: name });
        clients.push([`${name}/${String(partition)}`, client]);
      }
    }
    await vi.waitFor(() => {
      const active = clients.map(([key, client]) => [key, client.commands("ACTIVE_CONSUMER_CHANGE").at(-1)?.isActive]);
      expect(active.sort()).toEqual([
        ["c0/0", true],
        ["c0/1", false],
        ["c0/2", true],
        ["c0/3", false],
        ["c1/0", false],
        ["c1/1", true],
        ["c1/2", false],
        ["c1/3", true],
      ]);
    });
  });
});

describe("ConnectionConsumers lifecycle", () => {
  test("an Exclusive subscription refuses a second consumer with ERROR(ConsumerBusy)", async () => {
    const h = (harness = new BrokerHarness());
    await subscribed(h);
    const second = h.connect();
    await second.handshake();
    second.send({
      type: "SUBSCRIBE",
      body: { topic: TOPIC, subscription: "sub", subType: SubscriptionType.Exclusive, consumerId: 1n, requestId: 5n },
    });
    const [error] = await second.waitFor("ERROR");
    expect(error).toMatchObject({ requestId: 5n, error: ServerError.ConsumerBusy });
    expect(second.closedReason).toBeUndefined();
  });

  test("GET_LAST_MESSAGE_ID reports the last stored entry and the mark-delete position", async () => {
    const h = (harness = new BrokerHarness());
    const { ids } = await publish(h, 3);
    const client = await subscribed(h);
    client.send({ type: "GET_LAST_MESSAGE_ID", body: { consumerId: 1n, requestId: 6n } });
    const [response] = await client.waitFor("GET_LAST_MESSAGE_ID_RESPONSE");
    expect(response).toEqual({
      requestId: 6n,
      lastMessageId: ids[2],
      consumerMarkDeletePosition: { ledgerId: (ids[0] as MessageIdData).ledgerId, entryId: MINUS_ONE },
    });
  });

  test("GET_LAST_MESSAGE_ID of an unknown consumer is answered ERROR(ConsumerNotFound)", async () => {
    const h = (harness = new BrokerHarness());
    const client = await subscribed(h);
    client.send({ type: "GET_LAST_MESSAGE_ID", body: { consumerId: 2n, requestId: 6n } });
    const [error] = await client.waitFor("ERROR");
    expect(error).toMatchObject({ requestId: 6n, error: ServerError.ConsumerNotFound });
  });

  test("CLOSE_CONSUMER answers SUCCESS and frees an Exclusive subscription for another consumer", async () => {
    const h = (harness = new BrokerHarness());
    const client = await subscribed(h);
    client.send({ type: "CLOSE_CONSUMER", body: { consumerId: 1n, requestId: 9n } });
    await client.waitFor("SUCCESS", 2);
    expect(client.commands("SUCCESS")[1]).toEqual({ requestId: 9n });
    const next = await subscribed(h, { consumerId: 2n });
    expect(next.commands("SUCCESS")).toEqual([{ requestId: 100n }]);
  });

  test("UNSUBSCRIBE answers SUCCESS; the consumer is gone and a new subscription of the name starts over", async () => {
    const h = (harness = new BrokerHarness());
    const { ids } = await publish(h, 2);
    const client = await subscribed(h);
    client.send({ type: "FLOW", body: { consumerId: 1n, messagePermits: 10 } });
    await client.waitFor("MESSAGE", 2);
    client.send({
      type: "ACK",
      body: { consumerId: 1n, ackType: AckType.Cumulative, messageId: [ids[1] as MessageIdData], requestId: 1n },
    });
    await client.waitFor("ACK_RESPONSE");
    client.send({ type: "UNSUBSCRIBE", body: { consumerId: 1n, requestId: 10n } });
    await client.waitFor("SUCCESS", 2);
    expect(client.commands("SUCCESS")[1]).toEqual({ requestId: 10n });
    client.send({ type: "GET_LAST_MESSAGE_ID", body: { consumerId: 1n, requestId: 11n } });
    const [error] = await client.waitFor("ERROR");
    expect(error).toMatchObject({ requestId: 11n, error: ServerError.ConsumerNotFound });
    const again = await subscribed(h, { consumerId: 2n });
    again.send({ type: "FLOW", body: { consumerId: 2n, messagePermits: 10 } });
    await again.waitFor("MESSAGE", 2);
    expect(again.commands("MESSAGE").map((body) => body.messageId)).toEqual(ids);
  });

  test("a repeated SUBSCRIBE of the same consumer id answers SUCCESS; of another subscription ERROR(ConsumerBusy)", async () => {
    const h = (harness = new BrokerHarness());
    const client = await subscribed(h);
    client.send({
      type: "SUBSCRIBE",
      body: { topic: TOPIC, subscription: "sub", subType: SubscriptionType.Exclusive, consumerId: 1n, requestId: 12n },
    });
    client.send({
      type: "SUBSCRIBE",
      body: {
        topic: TOPIC,
        subscription: "other",
        subType: SubscriptionType.Exclusive,
        consumerId: 1n,
        requestId: 13n,
      },
    });
    await client.waitFor("ERROR");
    expect(client.commands("SUCCESS").map((body) => body.requestId)).toEqual([100n, 12n]);
    expect(client.commands("ERROR")[0]).toMatchObject({ requestId: 13n, error: ServerError.ConsumerBusy });
  });

  test("a connection closed while its SUBSCRIBE opens the topic leaves no consumer behind", async () => {
    const h = (harness = new BrokerHarness());
    const first = h.connect();
    await first.handshake();
    const ledgers = h.broker.context.ledgers;
    const open = ledgers.open.bind(ledgers);
    vi.spyOn(ledgers, "open").mockImplementationOnce(async (topic, options) => {
      const opening = open(topic, options);
      first.connection.close();
      return opening;
    });
    first.send({
      type: "SUBSCRIBE",
      body: { topic: TOPIC, subscription: "sub", subType: SubscriptionType.Exclusive, consumerId: 1n, requestId: 1n },
    });
    await vi.waitFor(() => expect(ledgers.open).toHaveBeenCalled());
    const second = await subscribed(h);
    expect(second.commands("SUCCESS")).toEqual([{ requestId: 100n }]);
    expect(first.commands("SUCCESS")).toEqual([]);
  });

  test("closing the connection detaches its consumers: an Exclusive subscription takes a new consumer", async () => {
    const h = (harness = new BrokerHarness());
    const first = await subscribed(h);
    first.connection.close();
    const second = await subscribed(h);
    expect(second.commands("SUCCESS")).toEqual([{ requestId: 100n }]);
  });

  test("SEEK answers SUCCESS and tells the consumer to subscribe again with CLOSE_CONSUMER", async () => {
    const h = (harness = new BrokerHarness());
    const { ids } = await publish(h, 3);
    const client = await subscribed(h);
    client.send({ type: "SEEK", body: { consumerId: 1n, requestId: 20n, messageId: ids[1] as MessageIdData } });
    await client.waitFor("CLOSE_CONSUMER");
    await client.waitFor("SUCCESS", 2);
    expect(client.commands("SUCCESS")[1]).toEqual({ requestId: 20n });
    expect(client.commands("CLOSE_CONSUMER")[0]).toMatchObject({ consumerId: 1n });
  });
});
