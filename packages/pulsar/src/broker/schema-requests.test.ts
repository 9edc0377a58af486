// Schemas through a PulsarConnection over in-memory stores: GET_SCHEMA of a topic without one, PRODUCER and
// SUBSCRIBE registering their schema (PRODUCER_SUCCESS carries the version as 8 big-endian bytes), the same schema
// again is the same version, an incompatible one is ERROR(IncompatibleSchema), the bytes schema and AutoConsume go
// with anything, GET_OR_CREATE_SCHEMA, versions by number, and partitions sharing their partitioned topic's schema.
import { afterEach, describe, expect, test } from "vitest";
import { type SchemaInfo, SchemaType, ServerError } from "../protocol/index.js";
import { parseTopicName } from "../topics/topic-name.js";
import { BrokerHarness, type TestClient } from "../../test/broker-harness.js";

const TOPIC = "persistent://public/default/typed";
const VERSION_0 = new Uint8Array(8);
const STRING: SchemaInfo = { name: "typed", schemaData: new Uint8Array(0), type: SchemaType.String, properties: [] };
const JSON_SCHEMA: SchemaInfo = {
  name: "typed",
  schemaData: new TextEncoder().encode('{"type":"record","name":"Order","fields":[{"name":"id","type":"long"}]}'),
  type: SchemaType.Json,
  properties: [{ key: "__alwaysAllowNull", value: "true" }],
};

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function client(): Promise<TestClient> {
  harness = new BrokerHarness();
  const connected = harness.connect();
  await connected.handshake();
  return connected;
}

describe("schemas through a connection", () => {
  test("GET_SCHEMA of a topic without a schema answers TopicNotFound, as Pulsar does", async () => {
    const c = await client();
    c.send({ type: "GET_SCHEMA", body: { requestId: 1n, topic: TOPIC } });
    expect((await c.waitFor("GET_SCHEMA_RESPONSE"))[0]).toEqual({
      requestId: 1n,
      errorCode: ServerError.TopicNotFound,
      errorMessage: "Topic not found or no-schema",
    });
  });

  test("a producer's schema becomes version 0; the same schema again is version 0; GET_SCHEMA returns it", async () => {
    const c = await client();
    c.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 1n, requestId: 1n, schema: JSON_SCHEMA } });
    c.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 2n, requestId: 2n, schema: JSON_SCHEMA } });
    const successes = await c.waitFor("PRODUCER_SUCCESS", 2);
    expect(successes.map((success) => success.schemaVersion)).toEqual([VERSION_0, VERSION_0]);
    c.send({ type: "GET_SCHEMA", body: { requestId: 3n, topic: TOPIC } });
    c.send({ type: "GET_SCHEMA", body: { requestId: 4n, topic: TOPIC, schemaVersion: VERSION_0 } });
    c.send({
      type: "GET_SCHEMA",
      body: { requestId: 5n, topic: TOPIC, schemaVersion: Uint8Array.of(0, 0, 0, 0, 0, 0, 0, 1) },
    });
    const [latest, byVersion, missing] = await c.waitFor("GET_SCHEMA_RESPONSE", 3);
    const expected = {
      schema: {
        name: "public/default/typed",
        schemaData: JSON_SCHEMA.schemaData,
        type: SchemaType.Json,
        properties: JSON_SCHEMA.properties,
      },
      schemaVersion: VERSION_0,
    };
    expect(latest).toEqual({ requestId: 3n, ...expected });
    expect(byVersion).toEqual({ requestId: 4n, ...expected });
    expect(missing).toMatchObject({ requestId: 5n, errorCode: ServerError.TopicNotFound });
  });

  test("an incompatible schema is refused for producers and consumers; bytes and AutoConsume go with any topic", async () => {
    const c = await client();
    c.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 1n, requestId: 1n, schema: STRING } });
    await c.waitFor("PRODUCER_SUCCESS");
    c.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 2n, requestId: 2n, schema: JSON_SCHEMA } });
    c.send({
      type: "SUBSCRIBE",
      body: { topic: TOPIC, subscription: "s", subType: 0, consumerId: 1n, requestId: 3n, schema: JSON_SCHEMA },
    });
    const errors = await c.waitFor("ERROR", 2);
    expect(errors.map((error) => [error.requestId, error.error])).toEqual([
      [2n, ServerError.IncompatibleSchema],
      [3n, ServerError.IncompatibleSchema],
    ]);
    expect(errors[0]?.message).toContain("has a String schema (version 0)");
    c.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 3n, requestId: 4n } });
    c.send({
      type: "SUBSCRIBE",
      body: { topic: TOPIC, subscription: "s", subType: 1, consumerId: 2n, requestId: 5n, schema: STRING },
    });
    const autoConsume = { ...STRING, type: SchemaType.AutoConsume };
    c.send({
      type: "SUBSCRIBE",
      body: { topic: TOPIC, subscription: "s", subType: 1, consumerId: 3n, requestId: 6n, schema: autoConsume },
    });
    const [, bytesProducer] = await c.waitFor("PRODUCER_SUCCESS", 2);
    expect(bytesProducer?.requestId).toBe(4n);
    expect(bytesProducer?.schemaVersion).toBeUndefined();
    expect((await c.waitFor("SUCCESS", 2)).map((success) => success.requestId)).toEqual([5n, 6n]);
  });

  test("GET_OR_CREATE_SCHEMA: version 0 on a new topic, the same version again, the empty version for bytes, IncompatibleSchema otherwise", async () => {
    const c = await client();
    const request = (requestId: bigint, schema: SchemaInfo): void =>
      c.send({ type: "GET_OR_CREATE_SCHEMA", body: { requestId, topic: TOPIC, schema } });
    request(1n, JSON_SCHEMA);
    await c.waitFor("GET_OR_CREATE_SCHEMA_RESPONSE");
    request(2n, { ...JSON_SCHEMA, properties: [] });
    request(3n, { ...STRING, type: SchemaType.None });
    request(4n, STRING);
    const responses = await c.waitFor("GET_OR_CREATE_SCHEMA_RESPONSE", 4);
    expect(responses.slice(0, 3)).toEqual([
      { requestId: 1n, schemaVersion: VERSION_0 },
      { requestId: 2n, schemaVersion: VERSION_0 },
      { requestId: 3n, schemaVersion: new Uint8Array(0) },
    ]);
    expect(responses[3]).toMatchObject({ requestId: 4n, errorCode: ServerError.IncompatibleSchema });
  });

  test("the partitions of a partitioned topic share its schema", async () => {
    const c = await client();
    await harness?.broker.context.ledgers.partitionedTopics.create(parseTopicName(TOPIC), 2);
    c.send({
      type: "PRODUCER",
      body: { topic: `${TOPIC}-partition-0`, producerId: 1n, requestId: 1n, schema: STRING },
    });
    await c.waitFor("PRODUCER_SUCCESS");
    c.send({
      type: "PRODUCER",
      body: { topic: `${TOPIC}-partition-1`, producerId: 2n, requestId: 2n, schema: JSON_SCHEMA },
    });
    expect((await c.waitFor("ERROR"))[0]).toMatchObject({ requestId: 2n, error: ServerError.IncompatibleSchema });
    c.send({ type: "GET_SCHEMA", body: { requestId: 3n, topic: TOPIC } });
    expect((await c.waitFor("GET_SCHEMA_RESPONSE"))[0]?.schema?.type).toBe(SchemaType.String);
  });
});
