// Producers of a PulsarConnection driven in process over in-memory stores: PRODUCER opens one (its name assigned
// when the client sent none), SENDs in flight are stored byte-exact and answered in send order with (virtual
// ledger id, offset), a bad checksum, unreadable metadata, an oversized payload or a message count the metadata
// contradicts are refused without storing anything, and CLOSE_PRODUCER answers SUCCESS after the producer's sends.
import { crc32c } from "@nereus/core";
import { afterEach, describe, expect, test } from "vitest";
import { ServerError, encodeMessageEntry } from "../protocol/index.js";
import { BrokerHarness, type BrokerHarnessOptions, type TestClient } from "../../test/broker-harness.js";
import { messageEntry, sendAnswers, sendEntry } from "../../test/producer-frames.js";

const TOPIC = "persistent://public/default/orders";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** `entry` with its checksum (over the bytes after it) recomputed. */
function withChecksum(entry: Uint8Array): Uint8Array {
  new DataView(entry.buffer, entry.byteOffset).setUint32(2, crc32c(entry.subarray(6)));
  return entry;
}

function entry(sequenceId: number, text: string): Uint8Array {
  return encodeMessageEntry(
    { producerName: "p", sequenceId: BigInt(sequenceId), publishTime: 1_700_000_000_000n },
    new TextEncoder().encode(text),
  );
}

async function producerClient(
  producerName?: string,
  options: BrokerHarnessOptions = {},
): Promise<{ h: BrokerHarness; client: TestClient }> {
  const h = (harness = new BrokerHarness(options));
  const client = h.connect();
  await client.handshake();
  client.send({
    type: "PRODUCER",
    body: { topic: TOPIC, producerId: 1n, requestId: 1n, ...(producerName === undefined ? {} : { producerName }) },
  });
  await client.waitFor("PRODUCER_SUCCESS");
  return { h, client };
}

describe("ConnectionProducers", () => {
  test("PRODUCER without a name is answered PRODUCER_SUCCESS with an assigned one", async () => {
    const { client } = await producerClient();
    const [success] = client.commands("PRODUCER_SUCCESS");
    expect(success).toMatchObject({ requestId: 1n, lastSequenceId: -1n, producerReady: true });
    expect(success?.producerName).toMatch(/^test-/);
    client.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 2n, requestId: 2n } });
    const names = (await client.waitFor("PRODUCER_SUCCESS", 2)).map((body) => body.producerName);
    expect(new Set(names).size).toBe(2);
  });

  test("PRODUCER with a name keeps it; a repeated PRODUCER of the same id answers the same name", async () => {
    const { client } = await producerClient("mine");
    client.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 1n, requestId: 2n } });
    const answers = await client.waitFor("PRODUCER_SUCCESS", 2);
    expect(answers.map((body) => [body.requestId, body.producerName])).toEqual([
      [1n, "mine"],
      [2n, "mine"],
    ]);
  });

  test("SENDs in flight are answered in send order with (virtual ledger id, offset) and stored byte-exact", async () => {
    const { h, client } = await producerClient();
    const sent = Array.from({ length: 8 }, (_, index) => entry(index, `message-${String(index)}`));
    sent.forEach((bytes, index) =>
      client.sendWithEntry({ type: "SEND", body: { producerId: 1n, sequenceId: BigInt(index) } }, bytes),
    );
    const receipts = await client.waitFor("SEND_RECEIPT", sent.length);
    const ledger = await h.broker.context.ledgers.open(TOPIC);
    expect(ledger.ledgerId >= 2n ** 62n).toBe(true);
    expect(receipts).toEqual(
      sent.map((_, index) => ({
        producerId: 1n,
        sequenceId: BigInt(index),
        messageId: { ledgerId: ledger.ledgerId, entryId: BigInt(index) },
      })),
    );
    const stored = await ledger.readEntries(0, { maxEntries: 100 });
    expect(stored.entries.map((read) => read.payload)).toEqual(sent);
  });

  test("SEND_RECEIPT echoes the highest sequence id of a batch", async () => {
    const { client } = await producerClient();
    sendEntry(client, 1n, 10n, messageEntry("p", 10n, "batch", { batch: 3 }), 3);
    const [receipt] = await client.waitFor("SEND_RECEIPT");
    expect(receipt).toMatchObject({ sequenceId: 10n, highestSequenceId: 12n });
  });

  test("a SEND whose message count contradicts its metadata is refused NotAllowedError, in order, nothing stored", async () => {
    const { h, client } = await producerClient();
    sendEntry(client, 1n, 0n, messageEntry("p", 0n, "one message"), 3);
    sendEntry(client, 1n, 1n, messageEntry("p", 1n, "a batch of two", { batch: 2 }));
    sendEntry(client, 1n, 3n, messageEntry("p", 3n, "a batch of two", { batch: 2 }), 2);
    await client.waitFor("SEND_RECEIPT");
    // The first SEND names sequence ids 0..2 (a batch of three): its error carries the highest.
    expect(sendAnswers(client)).toEqual([
      ["SEND_ERROR", 2n],
      ["SEND_ERROR", 1n],
      ["SEND_RECEIPT", 3n],
    ]);
    expect(client.commands("SEND_ERROR").map((error) => error.error)).toEqual([
      ServerError.NotAllowedError,
      ServerError.NotAllowedError,
    ]);
    expect(client.commands("SEND_ERROR")[0]?.message).toContain("declares 3 message(s)");
    expect((await h.broker.context.ledgers.open(TOPIC)).numberOfEntries()).toBe(1);
    expect(client.closedReason).toBeUndefined();
  });

  test("SEND_ERROR of a batch carries its highest sequence id (what clients match it against)", async () => {
    const { client } = await producerClient(undefined, { maxMessageBytes: 1_000 });
    sendEntry(client, 1n, 20n, messageEntry("p", 20n, "z".repeat(1_001), { batch: 4 }), 4);
    const [error] = await client.waitFor("SEND_ERROR");
    expect(error).toMatchObject({ sequenceId: 23n, error: ServerError.NotAllowedError });
  });

  test("a payload larger than maxMessageBytes is refused NotAllowedError; one of exactly that size is stored", async () => {
    const { h, client } = await producerClient(undefined, { maxMessageBytes: 1_000 });
    sendEntry(client, 1n, 0n, messageEntry("p", 0n, "x".repeat(1_001)));
    sendEntry(client, 1n, 1n, messageEntry("p", 1n, "y".repeat(1_000)));
    await client.waitFor("SEND_RECEIPT");
    expect(sendAnswers(client)).toEqual([
      ["SEND_ERROR", 0n],
      ["SEND_RECEIPT", 1n],
    ]);
    expect(client.commands("SEND_ERROR")[0]).toMatchObject({ error: ServerError.NotAllowedError });
    expect(client.commands("SEND_ERROR")[0]?.message).toContain("1001 bytes exceeds the maximum message size of 1000");
    expect((await h.broker.context.ledgers.open(TOPIC)).numberOfEntries()).toBe(1);
  });

  test("an entry whose metadata cannot be read (checksum intact) is refused NotAllowedError", async () => {
    const { h, client } = await producerClient();
    // The metadata size cuts off its last field (a required one); the checksum is recomputed over the change.
    const unreadable = encodeMessageEntry({ producerName: "p", sequenceId: 0n, publishTime: 1n }, new Uint8Array([1]));
    const metadataSize = new DataView(unreadable.buffer).getUint32(6);
    const broken = unreadable.slice();
    new DataView(broken.buffer).setUint32(6, metadataSize - 2);
    sendEntry(client, 1n, 0n, withChecksum(broken));
    const [error] = await client.waitFor("SEND_ERROR");
    expect(error).toMatchObject({ sequenceId: 0n, error: ServerError.NotAllowedError });
    expect(error?.message).toContain("metadata cannot be read");
    expect((await h.broker.context.ledgers.open(TOPIC)).numberOfEntries()).toBe(0);
  });

  test("a SEND with a bad checksum is answered SEND_ERROR(ChecksumError) in order and nothing is stored", async () => {
    const { h, client } = await producerClient();
    const corrupt = entry(1, "corrupt");
    corrupt[corrupt.length - 1] = (corrupt[corrupt.length - 1] ?? 0) ^ 0xff;
    client.sendWithEntry({ type: "SEND", body: { producerId: 1n, sequenceId: 0n } }, entry(0, "good"));
    client.sendWithEntry({ type: "SEND", body: { producerId: 1n, sequenceId: 1n } }, corrupt);
    client.sendWithEntry({ type: "SEND", body: { producerId: 1n, sequenceId: 2n } }, entry(2, "good again"));
    await client.waitFor("SEND_RECEIPT", 2);
    const answers = client.received
      .map((frame) => frame.command)
      .filter((command) => command.type === "SEND_RECEIPT" || command.type === "SEND_ERROR");
    expect(answers.map((command) => [command.type, (command.body as { sequenceId: bigint }).sequenceId])).toEqual([
      ["SEND_RECEIPT", 0n],
      ["SEND_ERROR", 1n],
      ["SEND_RECEIPT", 2n],
    ]);
    expect(client.commands("SEND_ERROR")[0]).toMatchObject({ producerId: 1n, error: ServerError.ChecksumError });
    expect(client.commands("SEND_RECEIPT").map((receipt) => receipt.messageId?.entryId)).toEqual([0n, 1n]);
    const ledger = await h.broker.context.ledgers.open(TOPIC);
    expect(ledger.numberOfEntries()).toBe(2);
    expect(client.closedReason).toBeUndefined();
  });

  test("a SEND without payload closes the connection", async () => {
    const { client } = await producerClient();
    client.send({ type: "SEND", body: { producerId: 1n, sequenceId: 0n } });
    await expect.poll(() => client.closedReason).toContain("without payload");
  });

  test("CLOSE_PRODUCER answers SUCCESS after the producer's earlier sends; its id then is unknown", async () => {
    const { client } = await producerClient();
    client.sendWithEntry({ type: "SEND", body: { producerId: 1n, sequenceId: 0n } }, entry(0, "before close"));
    client.send({ type: "CLOSE_PRODUCER", body: { producerId: 1n, requestId: 5n } });
    await client.waitFor("SUCCESS");
    const order = client.received.map((frame) => frame.command.type).slice(-2);
    expect(order).toEqual(["SEND_RECEIPT", "SUCCESS"]);
    expect(client.commands("SUCCESS")).toEqual([{ requestId: 5n }]);
    client.sendWithEntry({ type: "SEND", body: { producerId: 1n, sequenceId: 1n } }, entry(1, "after close"));
    await expect.poll(() => client.closedReason).toContain("unknown producer");
  });
});
