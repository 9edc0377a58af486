// The connection-level commands of PulsarConnection driven in process over in-memory stores: the CONNECT
// handshake and its version negotiation, commands before CONNECT, PING, discovery (LOOKUP, PARTITIONED_METADATA),
// requests or commands the broker does not serve, and closing on a protocol error after the replies to the commands
// before it.
import { ErrorCode, NereusError } from "@nereus/core";
import { afterEach, describe, expect, test } from "vitest";
import {
  LookupOutcome,
  PartitionedMetadataOutcome,
  ProtocolVersion,
  ServerError,
  encodeMessageEntry,
} from "../protocol/index.js";
import { ADVERTISED_URL, BrokerHarness } from "../../test/broker-harness.js";
import { BROKER_PROTOCOL_VERSION } from "./pulsar-connection.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function start(options: { maxMessageBytes?: number } = {}): BrokerHarness {
  harness = new BrokerHarness(options);
  return harness;
}

describe("PulsarConnection handshake", () => {
  test("CONNECT is answered CONNECTED with the server version, max message size and the client's lower version", async () => {
    const client = start({ maxMessageBytes: 1_048_576 }).connect();
    client.send({ type: "CONNECT", body: { clientVersion: "c", protocolVersion: ProtocolVersion.LAST_MESSAGE_ID } });
    const [connected] = await client.waitFor("CONNECTED");
    expect(connected).toEqual({
      serverVersion: "Nereus",
      protocolVersion: ProtocolVersion.LAST_MESSAGE_ID,
      maxMessageSize: 1_048_576,
    });
  });

  test("a client newer than the broker is answered with the broker's version", async () => {
    const client = start().connect();
    client.send({ type: "CONNECT", body: { clientVersion: "c", protocolVersion: BROKER_PROTOCOL_VERSION + 5 } });
    const [connected] = await client.waitFor("CONNECTED");
    expect(connected?.protocolVersion).toBe(BROKER_PROTOCOL_VERSION);
    expect(connected?.maxMessageSize).toBe(5 * 1024 * 1024);
  });

  test("a client below the checksum version gets ERROR(UnsupportedVersion) and the connection closes", async () => {
    const client = start().connect();
    client.send({ type: "CONNECT", body: { clientVersion: "c", protocolVersion: ProtocolVersion.CHECKSUM - 1 } });
    await client.waitFor("ERROR");
    expect(client.commands("ERROR")[0]?.error).toBe(ServerError.UnsupportedVersionError);
    expect(client.closedReason).toBeDefined();
    expect(client.commands("CONNECTED")).toEqual([]);
  });

  test("a command before CONNECT closes the connection without an answer", async () => {
    const h = start();
    const client = h.connect();
    client.send({ type: "PING", body: {} });
    client.send({ type: "CONNECT", body: { clientVersion: "c", protocolVersion: 21 } });
    await expect.poll(() => client.closedReason).toContain("PING before CONNECT");
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(client.received).toEqual([]);
    expect(h.errors.length).toBeGreaterThan(0);
  });

  test("a second CONNECT closes the connection", async () => {
    const client = start().connect();
    await client.handshake();
    client.send({ type: "CONNECT", body: { clientVersion: "c", protocolVersion: 21 } });
    await expect.poll(() => client.closedReason).toContain("CONNECT");
  });
});

describe("PulsarConnection keep-alive and discovery", () => {
  test("PING is answered PONG; PONG gets no answer", async () => {
    const client = start().connect();
    await client.handshake();
    client.send({ type: "PONG", body: {} });
    client.send({ type: "PING", body: {} });
    client.send({ type: "PING", body: {} });
    await client.waitFor("PONG", 2);
    expect(client.received.map((frame) => frame.command.type)).toEqual(["CONNECTED", "PONG", "PONG"]);
  });

  test("LOOKUP answers Connect to the advertised URL, authoritative", async () => {
    const client = start().connect();
    await client.handshake();
    client.send({ type: "LOOKUP", body: { topic: "persistent://public/default/orders", requestId: 7n } });
    const [response] = await client.waitFor("LOOKUP_RESPONSE");
    expect(response).toEqual({
      requestId: 7n,
      response: LookupOutcome.Connect,
      brokerServiceUrl: ADVERTISED_URL,
      authoritative: true,
    });
  });

  test("LOOKUP of an invalid topic name fails with InvalidTopicName", async () => {
    const client = start().connect();
    await client.handshake();
    client.send({ type: "LOOKUP", body: { topic: "persistent://only-tenant", requestId: 8n } });
    const [response] = await client.waitFor("LOOKUP_RESPONSE");
    expect(response).toMatchObject({
      requestId: 8n,
      response: LookupOutcome.Failed,
      error: ServerError.InvalidTopicName,
    });
  });

  test("PARTITIONED_METADATA of a plain topic reports 0 partitions", async () => {
    const client = start().connect();
    await client.handshake();
    client.send({ type: "PARTITIONED_METADATA", body: { topic: "orders", requestId: 9n } });
    const [response] = await client.waitFor("PARTITIONED_METADATA_RESPONSE");
    expect(response).toEqual({ requestId: 9n, partitions: 0, response: PartitionedMetadataOutcome.Success });
  });
});

describe("PulsarConnection unserved commands", () => {
  test("a request the broker does not serve gets ERROR(NotAllowed) and the connection stays open", async () => {
    const client = start().connect();
    await client.handshake();
    client.send({ type: "CONSUMER_STATS", body: { requestId: 11n, consumerId: 1n } });
    const [error] = await client.waitFor("ERROR");
    expect(error).toMatchObject({ requestId: 11n, error: ServerError.NotAllowedError });
    client.send({ type: "PING", body: {} });
    await client.waitFor("PONG");
    expect(client.closedReason).toBeUndefined();
  });

  test("a command only a broker sends closes the connection", async () => {
    const client = start().connect();
    await client.handshake();
    client.send({ type: "SUCCESS", body: { requestId: 1n } });
    await expect.poll(() => client.closedReason).toContain("unexpected command SUCCESS");
    client.send({ type: "PING", body: {} });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(client.commands("PONG")).toEqual([]);
  });

  test("a command type the codec does not model (a transaction command) closes the connection", async () => {
    const client = start().connect();
    await client.handshake();
    client.connection.handleDecoded({ command: { type: "UNSUPPORTED", typeCode: 50 } });
    await expect.poll(() => client.closedReason).toContain("unexpected command UNSUPPORTED");
  });

  test("a SEND of an unknown producer closes the connection", async () => {
    const client = start().connect();
    await client.handshake();
    client.send({ type: "SEND", body: { producerId: 99n, sequenceId: 0n } });
    await expect.poll(() => client.closedReason).toContain("unknown producer");
  });
});

describe("PulsarConnection closing on a protocol error", () => {
  function entry(sequenceId: number): Uint8Array {
    return encodeMessageEntry(
      { producerName: "p", sequenceId: BigInt(sequenceId), publishTime: 1_700_000_000_000n },
      new TextEncoder().encode(`message-${String(sequenceId)}`),
    );
  }

  test("an undecodable frame: the commands before it are answered (SEND receipts included), then the socket closes", async () => {
    const h = start();
    const client = h.connect();
    await client.handshake();
    client.send({ type: "PRODUCER", body: { topic: "orders", producerId: 1n, requestId: 1n } });
    for (let sequenceId = 0; sequenceId < 3; sequenceId += 1) {
      client.sendWithEntry(
        { type: "SEND", body: { producerId: 1n, sequenceId: BigInt(sequenceId) } },
        entry(sequenceId),
      );
    }
    client.send({ type: "LOOKUP", body: { topic: "orders", requestId: 2n } });
    const garbage = Uint8Array.of(0, 0, 0, 2, 0xff, 0xff);
    let failure: unknown;
    try {
      client.connection.handleFrame(garbage);
    } catch (error) {
      failure = error;
    }
    expect(NereusError.hasCode(failure, ErrorCode.DECODE_ERROR)).toBe(true);
    client.connection.abort("bad frame");
    client.send({ type: "PING", body: {} });
    await expect.poll(() => client.closedReason).toBe("bad frame");
    expect(client.received.map((frame) => frame.command.type).sort()).toEqual([
      "CONNECTED",
      "LOOKUP_RESPONSE",
      "PRODUCER_SUCCESS",
      "SEND_RECEIPT",
      "SEND_RECEIPT",
      "SEND_RECEIPT",
    ]);
    expect(client.commands("SEND_RECEIPT").map((receipt) => receipt.sequenceId)).toEqual([0n, 1n, 2n]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(client.received).toHaveLength(6);
  });

  test("a SEND of an unknown producer: the commands before it are answered, those after it are dropped", async () => {
    const client = start().connect();
    await client.handshake();
    client.send({ type: "PRODUCER", body: { topic: "orders", producerId: 1n, requestId: 1n } });
    client.sendWithEntry({ type: "SEND", body: { producerId: 1n, sequenceId: 0n } }, entry(0));
    client.sendWithEntry({ type: "SEND", body: { producerId: 9n, sequenceId: 0n } }, entry(1));
    client.send({ type: "PING", body: {} });
    await expect.poll(() => client.closedReason).toContain("unknown producer");
    expect(client.received.map((frame) => frame.command.type)).toEqual([
      "CONNECTED",
      "PRODUCER_SUCCESS",
      "SEND_RECEIPT",
    ]);
  });

  test("a connection closed by its peer while it drains writes nothing more", async () => {
    const client = start().connect();
    await client.handshake();
    client.send({ type: "PRODUCER", body: { topic: "orders", producerId: 1n, requestId: 1n } });
    client.connection.abort("bad frame");
    client.connection.close();
    await client.connection.idle();
    expect(client.received.map((frame) => frame.command.type)).toEqual(["CONNECTED"]);
    expect(client.closedReason).toBeUndefined();
  });
});
