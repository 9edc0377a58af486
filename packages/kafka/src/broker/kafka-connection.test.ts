import { ErrorCode, NereusError } from "@nereus/core";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, batchOf, fetchBody } from "../../test/broker-harness.js";
import { createGroupCoordinator } from "../groups/group-coordinator.js";
import { decodeResponse, encodeRequest } from "../protocol/encode-request.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import type { ResponseBody } from "../protocol/supported-apis.js";
import { NO_RESPONSE, type KafkaApiHandlers } from "./kafka-api-handler.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const apiVersionsBody = { clientSoftwareName: "test", clientSoftwareVersion: "1" };
const heartbeatBody = { groupId: "g", generationId: 1, memberId: "m", groupInstanceId: null };

async function expectClosing(promise: Promise<unknown>): Promise<NereusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(NereusError.hasCode(error, ErrorCode.DECODE_ERROR)).toBe(true);
  return error as NereusError;
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe("KafkaConnection", () => {
  test("ApiVersions advertises exactly the implemented APIs, Fetch up to v17 (topic ids)", async () => {
    harness = new BrokerHarness();
    const response = await harness.connect().request(18, 3, apiVersionsBody);
    expect(response.errorCode).toBe(0);
    expect(response.apiKeys.map((api) => [api.apiKey, api.minVersion, api.maxVersion])).toEqual([
      [0, 0, 11],
      [1, 4, 17],
      [2, 1, 10],
      [3, 0, 12],
      [17, 0, 1],
      [18, 0, 4],
      [19, 2, 7],
      [20, 1, 6],
      [21, 0, 2],
      [22, 0, 5],
      [29, 1, 3],
      [30, 1, 3],
      [31, 1, 3],
      [32, 1, 4],
      [33, 0, 2],
      [35, 1, 4],
      [36, 0, 2],
      [37, 0, 3],
      [44, 0, 1],
      [50, 0, 0],
      [51, 0, 0],
    ]);
  });

  test("group APIs are advertised and dispatched when group handlers are given (the coordinator fits the seam)", async () => {
    const metadata = new BrokerHarness().metadata;
    const coordinator = createGroupCoordinator({
      metadata,
      cluster: "kafka-test",
      nodeId: 1,
      host: "127.0.0.1",
      port: 9092,
    });
    const groupHandlers: KafkaApiHandlers = coordinator.handlers;
    harness = new BrokerHarness({ groupHandlers });
    const client = harness.connect();
    const versions = await client.request(18, 2, apiVersionsBody);
    expect(versions.apiKeys.map((api) => api.apiKey)).toEqual([
      0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 29, 30, 31, 32, 33, 35, 36, 37, 42, 44, 47,
      50, 51,
    ]);
    const found = await client.request(10, 3, { key: "g", keyType: 0, coordinatorKeys: [] });
    expect(found).toMatchObject({ errorCode: 0, nodeId: 1, host: "127.0.0.1", port: 9092 });
  });

  test("a handler for an API the broker answers itself is refused", () => {
    expect(
      () => new BrokerHarness({ groupHandlers: { Produce: { handle: () => Promise.resolve(NO_RESPONSE) } } }),
    ).toThrow(/answered by the broker itself/);
  });

  test("responses come back in request order although handlers finish out of order", async () => {
    const gate = deferred<ResponseBody<12>>();
    harness = new BrokerHarness({ groupHandlers: { Heartbeat: { handle: () => gate.promise } } });
    const client = harness.connect();
    const order: string[] = [];
    const heartbeat = client.request(12, 3, heartbeatBody).then(() => order.push("heartbeat"));
    const versions = client.request(18, 3, apiVersionsBody).then(() => order.push("api-versions"));
    const metadata = client
      .request(3, 9, {
        topics: [],
        allowAutoTopicCreation: false,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: false,
      })
      .then(() => order.push("metadata"));
    for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    gate.resolve({ throttleTimeMs: 0, errorCode: 0 });
    await Promise.all([heartbeat, versions, metadata]);
    expect(order).toEqual(["heartbeat", "api-versions", "metadata"]);
  });

  test("an ApiVersions request of an unknown version gets the v0 fallback listing the advertised APIs", async () => {
    harness = new BrokerHarness();
    const connection = harness.broker.openConnection("peer");
    const frame = encodeRequest(
      { apiKey: 18, apiVersion: 3, correlationId: 77, clientId: "x" },
      apiVersionsBody,
    ).subarray(4);
    new DataView(frame.buffer, frame.byteOffset).setInt16(2, 9);
    const response = await connection.handleFrame(frame);
    const decoded = decodeResponse({ apiKey: 18, apiVersion: 0 }, response?.subarray(4) ?? new Uint8Array());
    expect(decoded.header.correlationId).toBe(77);
    expect(decoded.body.errorCode).toBe(KafkaErrorCode.UNSUPPORTED_VERSION);
    expect(decoded.body.apiKeys.map((api) => api.apiKey)).toEqual([
      0, 1, 2, 3, 17, 18, 19, 20, 21, 22, 29, 30, 31, 32, 33, 35, 36, 37, 44, 50, 51,
    ]);
    expect(decoded.body.apiKeys.find((api) => api.apiKey === 18)?.maxVersion).toBe(4);
  });

  test("unadvertised APIs and versions close the connection; so does every later frame", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await expectClosing(client.request(12, 3, heartbeatBody));
    await expectClosing(client.request(18, 3, apiVersionsBody));
    const fetchV3 = harness.connect();
    await expectClosing(fetchV3.send(1, 3, fetchBody([])));
    const unknownApi = harness.broker.openConnection("peer");
    const frame = encodeRequest(
      { apiKey: 18, apiVersion: 3, correlationId: 1, clientId: null },
      apiVersionsBody,
    ).subarray(4);
    new DataView(frame.buffer, frame.byteOffset).setInt16(0, 57);
    await expectClosing(unknownApi.handleFrame(frame));
    expect(
      harness.broker.metrics.collect().find((family) => family.name === "nereus_kafka_connections_failed_total")
        ?.samples[0]?.value,
    ).toBe(3);
  });

  test("a malformed body with a readable header gets the API's error body; an unreadable header closes", async () => {
    harness = new BrokerHarness();
    const connection = harness.broker.openConnection("peer");
    const frame = encodeRequest(
      { apiKey: 18, apiVersion: 3, correlationId: 5, clientId: "x" },
      apiVersionsBody,
    ).subarray(4);
    const response = await connection.handleFrame(frame.subarray(0, frame.length - 2));
    const decoded = decodeResponse({ apiKey: 18, apiVersion: 3 }, response?.subarray(4) ?? new Uint8Array());
    expect(decoded.header.correlationId).toBe(5);
    expect(decoded.body.errorCode).toBe(KafkaErrorCode.INVALID_REQUEST);
    // The connection stays usable.
    expect((await harness.connect().request(18, 3, apiVersionsBody)).errorCode).toBe(0);
    await expectClosing(harness.broker.openConnection("peer").handleFrame(new Uint8Array([0, 18, 0])));
  });

  test("a handler that throws gets a generic error answer and an error log, and the connection goes on", async () => {
    harness = new BrokerHarness({ groupHandlers: { Heartbeat: { handle: () => Promise.reject(new Error("boom")) } } });
    const client = harness.connect();
    expect((await client.request(12, 3, heartbeatBody)).errorCode).toBe(KafkaErrorCode.UNKNOWN_SERVER_ERROR);
    expect(harness.errors().map((event) => event.message)).toEqual(["request handler failed"]);
    expect((await client.request(18, 3, apiVersionsBody)).errorCode).toBe(0);
  });

  test("acks=0 resolves without a response; closing a connection releases a long-polling fetch", async () => {
    harness = new BrokerHarness({ maxFetchWaitMs: 60_000 });
    const client = harness.connect();
    await client.createTopic("quiet");
    expect(await client.produce("quiet", 0, batchOf(["a"]), { acks: 0 })).toBeUndefined();
    const poll = client.fetch("quiet", 0, 1, { maxWaitMs: 60_000, minBytes: 1 });
    for (let turn = 0; turn < 10; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    client.connection.close();
    expect((await poll)?.records?.length).toBe(0);
    await expectClosing(client.request(18, 3, apiVersionsBody));
  });

  test("handleFrameParts: a Fetch carrying large records comes as parts, the records not copied, joining to handleFrame's frame", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.createTopic("big");
    const batch = batchOf(Array.from({ length: 40 }, (_, index) => `${String(index)}:${"v".repeat(2000)}`));
    expect(batch.length).toBeGreaterThan(64 * 1024);
    expect((await client.produce("big", 0, batch))?.errorCode).toBe(0);
    const frame = encodeRequest(
      { apiKey: 1, apiVersion: 12, correlationId: 9, clientId: "parts" },
      fetchBody([{ topic: "big", partition: 0, offset: 0 }]),
    ).subarray(4);
    const parts = await client.connection.handleFrameParts(frame);
    const whole = await client.connection.handleFrame(frame);
    expect(parts?.length).toBeGreaterThan(1);
    const joined = Buffer.concat(parts ?? []);
    expect(Buffer.compare(joined, Buffer.from(whole ?? []))).toBe(0);
    const decoded = decodeResponse({ apiKey: 1, apiVersion: 12 }, joined.subarray(4));
    expect(decoded.body.responses[0]?.partitions[0]?.records?.length).toBe(batch.length);
    expect(new DataView(joined.buffer, joined.byteOffset).getInt32(0)).toBe(joined.length - 4);
  });
});
