// Publish backpressure through in-process connections over in-memory stores whose appends are held: a connection
// asks to stop reading at its bound of pending SENDs and to read again once they drain to half; the broker-wide
// buffer of pending bytes pauses every connection and resumes them once drained to half; a closed connection gives
// its bytes back. The shared buffer and one connection's throttle are also checked alone.
import { afterEach, describe, expect, test, vi } from "vitest";
import { BrokerHarness, type BrokerHarnessOptions, type TestClient } from "../../test/broker-harness.js";
import { messageEntry, openProducer, sendAnswers, sendEntry } from "../../test/producer-frames.js";
import { type Hold, hold } from "../../test/scripted-streams.js";
import { PublishBuffer, PublishThrottle } from "./publish-backpressure.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A broker whose stream appends wait for the returned hold. */
function heldBroker(options: BrokerHarnessOptions): { h: BrokerHarness; held: Hold } {
  const h = new BrokerHarness(options);
  harness = h;
  const held = hold();
  const append = h.streams.append.bind(h.streams);
  vi.spyOn(h.streams, "append").mockImplementation(async (...args) => {
    await held.promise;
    return append(...args);
  });
  return { h, held };
}

async function producerClient(h: BrokerHarness, topic: string): Promise<TestClient> {
  const client = h.connect();
  await client.handshake();
  const answer = await openProducer(client, { topic, producerId: 1n, requestId: 1n, producerName: "p" });
  if (!("producerName" in answer)) throw new Error(`PRODUCER refused: ${answer.message}`);
  return client;
}

function sendMany(client: TestClient, from: number, count: number, text = "m"): void {
  for (let id = from; id < from + count; id += 1) {
    sendEntry(client, 1n, BigInt(id), messageEntry("p", BigInt(id), text));
  }
}

describe("per-connection bound of pending publishes", () => {
  test("the connection asks to stop reading at the bound and to read again after its SENDs are answered", async () => {
    const { h, held } = heldBroker({ maxPendingPublishRequestsPerConnection: 4 });
    const client = await producerClient(h, "persistent://public/default/slow");
    sendMany(client, 0, 3);
    expect(client.readRequests).toEqual([]);
    expect(client.connection.pendingPublishes).toMatchObject({ count: 3, readingPaused: false });
    sendMany(client, 3, 1);
    expect(client.readRequests).toEqual(["pause"]);
    expect(client.connection.pendingPublishes).toMatchObject({ count: 4, readingPaused: true });
    sendMany(client, 4, 2);
    expect(client.readRequests).toEqual(["pause"]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(sendAnswers(client)).toEqual([]);

    held.release();
    await client.waitUntil(() => sendAnswers(client).length === 6);
    expect(sendAnswers(client).every(([type]) => type === "SEND_RECEIPT")).toBe(true);
    expect(client.readRequests).toEqual(["pause", "resume"]);
    expect(client.connection.pendingPublishes).toEqual({ count: 0, bytes: 0, readingPaused: false });
    expect(h.broker.context.publishBuffer.usedBytes).toBe(0);
  });

  test("a connection closed with SENDs pending gives their bytes back to the broker at once", async () => {
    const { h, held } = heldBroker({ maxPendingPublishRequestsPerConnection: 100 });
    const client = await producerClient(h, "persistent://public/default/closing");
    sendMany(client, 0, 5);
    expect(h.broker.context.publishBuffer.usedBytes).toBeGreaterThan(0);
    client.connection.close();
    expect(h.broker.context.publishBuffer.usedBytes).toBe(0);
    held.release();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(h.broker.context.publishBuffer.usedBytes).toBe(0);
  });
});

describe("broker-wide bound of pending publish bytes", () => {
  test("every connection is paused while the broker holds too many bytes, and resumed once half drained", async () => {
    const text = "x".repeat(1_000);
    const { h, held } = heldBroker({ maxPendingPublishBytes: 5_000, maxPendingPublishRequestsPerConnection: 1_000 });
    const writer = await producerClient(h, "persistent://public/default/big");
    const idle = h.connect();
    await idle.handshake();
    sendMany(writer, 0, 4, text);
    expect(writer.readRequests).toEqual([]);
    sendMany(writer, 4, 1, text);
    expect(h.broker.context.publishBuffer.paused).toBe(true);
    expect(writer.readRequests).toEqual(["pause"]);
    expect(idle.readRequests).toEqual(["pause"]);

    held.release();
    await writer.waitUntil(() => sendAnswers(writer).length === 5);
    expect(writer.readRequests).toEqual(["pause", "resume"]);
    expect(idle.readRequests).toEqual(["pause", "resume"]);
    expect(h.broker.context.publishBuffer.usedBytes).toBe(0);
  });

  test("refuses bounds that are not positive integers", () => {
    expect(() => new BrokerHarness({ maxPendingPublishRequestsPerConnection: 0 })).toThrow(
      /maxPendingPublishRequestsPerConnection/,
    );
    expect(() => new BrokerHarness({ maxPendingPublishBytes: 1.5 })).toThrow(/maxPendingPublishBytes/);
  });
});

describe("PublishThrottle", () => {
  test("resumes only once both the connection's count and the shared buffer drained to half", () => {
    const buffer = new PublishBuffer(100);
    const requests: string[] = [];
    const throttle = new PublishThrottle(4, buffer, {
      pauseReading: () => requests.push("pause"),
      resumeReading: () => requests.push("resume"),
    });
    const done = [10, 10, 10, 80].map((bytes) => throttle.started(bytes));
    expect(requests).toEqual(["pause"]);
    done[3]!();
    done[3]!();
    expect(buffer.usedBytes).toBe(30);
    expect(requests).toEqual(["pause"]);
    done[0]!();
    expect(throttle.pendingCount).toBe(2);
    expect(requests).toEqual(["pause", "resume"]);
    throttle.close();
    expect(buffer.usedBytes).toBe(0);
    done[1]!();
    expect(buffer.usedBytes).toBe(0);
  });
});
