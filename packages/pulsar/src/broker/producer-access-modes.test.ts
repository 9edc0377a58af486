// Producer access modes and names through in-process connections: a name connected twice is ProducerBusy (free again
// once its connection closed); Exclusive gets a topic epoch and refuses others; WaitForExclusive is answered
// producerReady=false, may not send, and is answered again, ready, when the topic frees up; ExclusiveWithFencing
// closes the other producers with CLOSE_PRODUCER (after their sends in flight were answered) and fails queued ones
// with ProducerFenced; SENDs still arriving for a fenced producer are dropped without closing the connection.
import { afterEach, describe, expect, test } from "vitest";
import { ProducerAccessMode, ServerError } from "../protocol/index.js";
import { BrokerHarness, type TestClient } from "../../test/broker-harness.js";
import { messageEntry, openProducer, sendAnswers, sendEntry } from "../../test/producer-frames.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function clients(count: number): Promise<TestClient[]> {
  const h = (harness = new BrokerHarness());
  return Promise.all(
    Array.from({ length: count }, async () => {
      const client = h.connect();
      await client.handshake();
      return client;
    }),
  );
}

describe("producer names and access modes", () => {
  test("a producer name is connected to a topic once; once its connection closed it may connect again", async () => {
    const [first, second] = await clients(2);
    expect(await openProducer(first!, { producerId: 1n, requestId: 1n, producerName: "app" })).toMatchObject({
      producerName: "app",
      producerReady: true,
    });
    expect(await openProducer(second!, { producerId: 1n, requestId: 1n, producerName: "app" })).toMatchObject({
      error: ServerError.ProducerBusy,
    });
    expect(await openProducer(first!, { producerId: 2n, requestId: 2n, producerName: "app" })).toMatchObject({
      error: ServerError.ProducerBusy,
    });
    first!.connection.close();
    expect(await openProducer(second!, { producerId: 2n, requestId: 2n, producerName: "app" })).toMatchObject({
      producerName: "app",
    });
  });

  test("Exclusive gets topic epoch 0; a shared producer is then ProducerBusy, another exclusive one ProducerFenced", async () => {
    const [owner, other] = await clients(2);
    const exclusive = ProducerAccessMode.Exclusive;
    expect(
      await openProducer(owner!, { producerId: 1n, requestId: 1n, producerName: "x", producerAccessMode: exclusive }),
    ).toMatchObject({ topicEpoch: 0n, producerReady: true });
    expect(await openProducer(other!, { producerId: 1n, requestId: 1n })).toMatchObject({
      error: ServerError.ProducerBusy,
    });
    expect(await openProducer(other!, { producerId: 2n, requestId: 2n, producerAccessMode: exclusive })).toMatchObject({
      error: ServerError.ProducerFenced,
    });
    owner!.send({ type: "CLOSE_PRODUCER", body: { producerId: 1n, requestId: 9n } });
    await owner!.waitFor("SUCCESS");
    expect(await openProducer(other!, { producerId: 3n, requestId: 3n, producerAccessMode: exclusive })).toMatchObject({
      topicEpoch: 1n,
      producerReady: true,
    });
  });

  test("WaitForExclusive: producerReady=false, SENDs refused NotAllowedError, then ready once the shared producer closed", async () => {
    const [sharer, waiter] = await clients(2);
    await openProducer(sharer!, { producerId: 1n, requestId: 1n, producerName: "s" });
    const queued = await openProducer(waiter!, {
      producerId: 1n,
      requestId: 7n,
      producerName: "w",
      producerAccessMode: ProducerAccessMode.WaitForExclusive,
    });
    expect(queued).toMatchObject({ requestId: 7n, producerName: "w", producerReady: false });
    sendEntry(waiter!, 1n, 0n, messageEntry("w", 0n, "too early"));
    const [refusal] = await waiter!.waitFor("SEND_ERROR");
    expect(refusal).toMatchObject({ sequenceId: 0n, error: ServerError.NotAllowedError });

    sharer!.send({ type: "CLOSE_PRODUCER", body: { producerId: 1n, requestId: 2n } });
    const answers = await waiter!.waitFor("PRODUCER_SUCCESS", 2);
    expect(answers[1]).toMatchObject({ requestId: 7n, producerName: "w", producerReady: true, topicEpoch: 0n });
    sendEntry(waiter!, 1n, 1n, messageEntry("w", 1n, "now"));
    const [receipt] = await waiter!.waitFor("SEND_RECEIPT");
    expect(receipt?.messageId?.entryId).toBe(0n);
    expect(waiter!.closedReason).toBeUndefined();
  });

  test("a queued WaitForExclusive producer whose connection closed leaves the queue to the next one", async () => {
    const [holder, gone, next] = await clients(3);
    const wait = ProducerAccessMode.WaitForExclusive;
    await openProducer(holder!, { producerId: 1n, requestId: 1n, producerAccessMode: ProducerAccessMode.Exclusive });
    await openProducer(gone!, { producerId: 1n, requestId: 1n, producerAccessMode: wait });
    await openProducer(next!, { producerId: 1n, requestId: 1n, producerAccessMode: wait });
    gone!.connection.close();
    holder!.connection.close();
    const answers = await next!.waitFor("PRODUCER_SUCCESS", 2);
    expect(answers.map((answer) => [answer.producerReady, answer.topicEpoch])).toEqual([
      [false, undefined],
      [true, 1n],
    ]);
  });

  test("ExclusiveWithFencing closes the others after their sends in flight, fails queued ones, and drops late SENDs", async () => {
    const [sharer, waiter, taker] = await clients(3);
    await openProducer(sharer!, { producerId: 1n, requestId: 1n, producerName: "s" });
    await openProducer(waiter!, {
      producerId: 1n,
      requestId: 4n,
      producerAccessMode: ProducerAccessMode.WaitForExclusive,
    });
    sendEntry(sharer!, 1n, 0n, messageEntry("s", 0n, "in flight"));
    await sharer!.connection.idle();
    const taken = await openProducer(taker!, {
      producerId: 1n,
      requestId: 1n,
      producerName: "t",
      producerAccessMode: ProducerAccessMode.ExclusiveWithFencing,
    });
    expect(taken).toMatchObject({ producerName: "t", topicEpoch: 0n, producerReady: true });

    await sharer!.waitFor("CLOSE_PRODUCER");
    const order = sharer!.received.map((frame) => frame.command.type).slice(-2);
    expect(order).toEqual(["SEND_RECEIPT", "CLOSE_PRODUCER"]);
    expect(sharer!.commands("CLOSE_PRODUCER")).toEqual([{ producerId: 1n, requestId: 2n ** 64n - 1n }]);
    const [fenced] = await waiter!.waitFor("ERROR");
    expect(fenced).toMatchObject({ requestId: 4n, error: ServerError.ProducerFenced });

    sendEntry(sharer!, 1n, 1n, messageEntry("s", 1n, "late"));
    await sharer!.connection.idle();
    expect(sendAnswers(sharer!)).toEqual([["SEND_RECEIPT", 0n]]);
    expect(sharer!.closedReason).toBeUndefined();
    expect(await openProducer(sharer!, { producerId: 2n, requestId: 2n })).toMatchObject({
      error: ServerError.ProducerBusy,
    });
  });
});
