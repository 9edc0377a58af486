// Broker-side deduplication through in-process connections over in-memory stores: a resend after a reconnect is
// receipted without a second entry and PRODUCER_SUCCESS carries the last sequence id; the policy (broker default,
// per-topic function) decides; the state survives a restart (checkpoint at close) and a crash (checkpoint plus the
// entries after it); a resend of a send still in flight waits for its outcome; an uncertain append is answered with
// a retryable error and its resend is judged by what core resolved, never stored twice; chunks before a message's
// last one are not remembered, so a message cut short by a crash is stored whole on resend.
import { AppendFailedError, ErrorCode } from "@nereus/core";
import { afterEach, describe, expect, test, vi } from "vitest";
import { dedupCheckpointCodec } from "../dedup/dedup-checkpoint-codec.js";
import { parseEntryMetadata } from "../entries/entry-metadata.js";
import { ServerError } from "../protocol/index.js";
import { BrokerHarness, type BrokerHarnessOptions, type TestClient } from "../../test/broker-harness.js";
import { isHeadCommit } from "../../test/ledger-harness.js";
import { TOPIC, messageEntry, openProducer, sendAnswers, sendEntry } from "../../test/producer-frames.js";
import { hold } from "../../test/scripted-streams.js";

/** SEND_ERROR codes after which clients reconnect and resend (rather than failing the message). */
const RESENT_BY_CLIENTS = [ServerError.PersistenceError, ServerError.MetadataError, ServerError.ServiceNotReady];

const DUPLICATE_ID = { ledgerId: 2n ** 64n - 1n, entryId: 2n ** 64n - 1n };

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function start(options: BrokerHarnessOptions = {}): BrokerHarness {
  harness = new BrokerHarness({ deduplication: true, ...options });
  return harness;
}

/** A connected client with producer 1 named `name` on `topic`; returns it and PRODUCER_SUCCESS.lastSequenceId. */
async function producer(h: BrokerHarness, name: string, topic = TOPIC): Promise<{ client: TestClient; last: bigint }> {
  const client = h.connect();
  await client.handshake();
  const answer = await openProducer(client, { topic, producerId: 1n, requestId: 1n, producerName: name });
  if (!("producerName" in answer)) throw new Error(`PRODUCER refused: ${answer.message}`);
  return { client, last: answer.lastSequenceId ?? -1n };
}

/** Sends `sequenceIds` of `name` as single messages (text = "m<id>") and waits for their answers. */
async function sendAll(client: TestClient, name: string, sequenceIds: readonly bigint[]): Promise<void> {
  const before = sendAnswers(client).length;
  for (const id of sequenceIds) sendEntry(client, 1n, id, messageEntry(name, id, `m${String(id)}`));
  await client.waitUntil(() => sendAnswers(client).length >= before + sequenceIds.length);
}

async function storedTexts(h: BrokerHarness, topic = TOPIC): Promise<string[]> {
  const ledger = await h.broker.context.ledgers.open(topic);
  const { entries } = await ledger.readEntries(0, { maxEntries: 1_000 });
  return entries.map((entry) =>
    new TextDecoder().decode(entry.payload.subarray(parseEntryMetadata(entry.payload).payloadOffset)),
  );
}

async function entryCount(h: BrokerHarness, topic = TOPIC): Promise<number> {
  return (await h.broker.context.ledgers.open(topic)).numberOfEntries();
}

describe("broker-side deduplication", () => {
  test("a resend after a reconnect is receipted MessageId -1:-1 without a second entry; the producer resumes after the last sequence id", async () => {
    const h = start();
    const first = await producer(h, "app");
    expect(first.last).toBe(-1n);
    await sendAll(first.client, "app", [0n, 1n, 2n]);
    first.client.connection.close();

    const second = await producer(h, "app");
    expect(second.last).toBe(2n);
    await sendAll(second.client, "app", [1n, 2n, 3n]);
    const receipts = second.client.commands("SEND_RECEIPT");
    expect(receipts.map((receipt) => [receipt.sequenceId, receipt.messageId])).toEqual([
      [1n, DUPLICATE_ID],
      [2n, DUPLICATE_ID],
      [3n, { ledgerId: (await h.broker.context.ledgers.open(TOPIC)).ledgerId, entryId: 3n }],
    ]);
    expect(await entryCount(h)).toBe(4);
  });

  test("a resent batch is a duplicate by its first sequence id; the next batch continues after its highest", async () => {
    const h = start();
    const { client } = await producer(h, "batcher");
    sendEntry(client, 1n, 0n, messageEntry("batcher", 0n, "b0", { batch: 5 }), 5);
    await client.waitFor("SEND_RECEIPT");
    client.connection.close();
    const again = await producer(h, "batcher");
    expect(again.last).toBe(4n);
    sendEntry(again.client, 1n, 0n, messageEntry("batcher", 0n, "b0", { batch: 5 }), 5);
    sendEntry(again.client, 1n, 5n, messageEntry("batcher", 5n, "b1", { batch: 2 }), 2);
    const receipts = await again.client.waitFor("SEND_RECEIPT", 2);
    expect(
      receipts.map((receipt) => [receipt.sequenceId, receipt.highestSequenceId, receipt.messageId?.entryId]),
    ).toEqual([
      [0n, 4n, DUPLICATE_ID.entryId],
      [5n, 6n, 1n],
    ]);
    expect(await entryCount(h)).toBe(2);
  });

  test("off by default: a resend is stored again and PRODUCER_SUCCESS says -1", async () => {
    const h = (harness = new BrokerHarness());
    const first = await producer(h, "app");
    await sendAll(first.client, "app", [0n, 1n]);
    first.client.connection.close();
    const second = await producer(h, "app");
    expect(second.last).toBe(-1n);
    await sendAll(second.client, "app", [1n]);
    expect(await entryCount(h)).toBe(3);
  });

  test("the per-topic policy decides, asked at each PRODUCER", async () => {
    const asked: string[] = [];
    const h = start({
      deduplication: false,
      deduplicationEnabled: (topic) => {
        asked.push(topic);
        return Promise.resolve(topic.endsWith("-dedup"));
      },
    });
    const deduplicated = "persistent://public/default/orders-dedup";
    for (const topic of [deduplicated, TOPIC]) {
      const first = await producer(h, "app", topic);
      await sendAll(first.client, "app", [0n]);
      first.client.connection.close();
      const second = await producer(h, "app", topic);
      await sendAll(second.client, "app", [0n]);
      second.client.connection.close();
    }
    expect(asked).toEqual([deduplicated, deduplicated, TOPIC, TOPIC]);
    expect(await entryCount(h, deduplicated)).toBe(1);
    expect(await entryCount(h, TOPIC)).toBe(2);
  });

  test("turned on for a topic with history, deduplication starts from the whole stream; turned off, resends are stored", async () => {
    let enabled = false;
    const h = start({ deduplicationEnabled: () => Promise.resolve(enabled) });
    const early = await producer(h, "early");
    await sendAll(early.client, "early", [0n, 1n, 2n]);

    enabled = true;
    const late = await producer(h, "late");
    sendEntry(early.client, 1n, 1n, messageEntry("early", 1n, "m1"));
    await early.client.waitFor("SEND_RECEIPT", 4);
    expect(early.client.commands("SEND_RECEIPT")[3]?.messageId).toEqual(DUPLICATE_ID);
    expect(await entryCount(h)).toBe(3);

    enabled = false;
    late.client.connection.close();
    await producer(h, "later");
    sendEntry(early.client, 1n, 1n, messageEntry("early", 1n, "m1"));
    await early.client.waitFor("SEND_RECEIPT", 5);
    expect(early.client.commands("SEND_RECEIPT")[4]?.messageId?.entryId).toBe(3n);
    expect(await entryCount(h)).toBe(4);
  });

  test("a name no producer was attached under for deduplicationInactiveProducerMs is forgotten at the next checkpoint", async () => {
    let now = 1_700_000_000_000;
    const h = start({ clock: () => now, deduplicationInactiveProducerMs: 60_000, deduplicationCheckpointEntries: 1 });
    const gone = await producer(h, "gone");
    await sendAll(gone.client, "gone", [0n, 1n]);
    gone.client.connection.close();
    const stays = await producer(h, "stays");
    await sendAll(stays.client, "stays", [0n, 1n]);

    now += 59_999;
    await sendAll(stays.client, "stays", [2n]);
    const early = await producer(h, "gone");
    expect(early.last).toBe(1n);
    early.client.connection.close();

    now += 60_000;
    await sendAll(stays.client, "stays", [3n, 1n]);
    expect(stays.client.commands("SEND_RECEIPT").map((receipt) => receipt.messageId?.entryId)).toEqual([
      2n,
      3n,
      4n,
      5n,
      DUPLICATE_ID.entryId,
    ]);
    const back = await producer(h, "gone");
    expect(back.last).toBe(-1n);
    await sendAll(back.client, "gone", [1n]);
    expect(back.client.commands("SEND_RECEIPT")[0]?.messageId?.entryId).toBe(6n);
  });

  test("the state survives a restart: the broker checkpoints at close, the new one reads the checkpoint", async () => {
    const h = start();
    const { client } = await producer(h, "app");
    await sendAll(client, "app", [0n, 1n, 2n, 3n, 4n]);
    await h.restart();
    const ledger = await h.broker.context.ledgers.open(TOPIC);
    const keyspace = h.broker.context.ledgers.topics.keyspace;
    const stored = await h.metadata.get(keyspace.dedupKey(ledger.streamId));
    const checkpoint = dedupCheckpointCodec(keyspace).decode(stored!.value, stored!.key);
    expect(checkpoint).toEqual({
      streamId: ledger.streamId,
      endOffset: 5,
      producers: [{ producerName: "app", lastSequenceId: 4n }],
    });

    const again = await producer(h, "app");
    expect(again.last).toBe(4n);
    await sendAll(again.client, "app", [3n, 4n, 5n]);
    expect(sendAnswers(again.client)).toEqual([
      ["SEND_RECEIPT", 3n],
      ["SEND_RECEIPT", 4n],
      ["SEND_RECEIPT", 5n],
    ]);
    expect(again.client.commands("SEND_RECEIPT")[0]?.messageId).toEqual(DUPLICATE_ID);
    expect(await storedTexts(h)).toEqual(["m0", "m1", "m2", "m3", "m4", "m5"]);
  });

  test("the state survives a crash: the last periodic checkpoint plus the entries after it", async () => {
    const h = start({ deduplicationCheckpointEntries: 3 });
    const { client } = await producer(h, "app");
    await sendAll(client, "app", [0n, 1n, 2n, 3n, 4n, 5n, 6n]);
    const ledger = await h.broker.context.ledgers.open(TOPIC);
    const keyspace = h.broker.context.ledgers.topics.keyspace;
    const codec = dedupCheckpointCodec(keyspace);
    let checkpointEnd: number | undefined;
    await vi.waitFor(async () => {
      const stored = await h.metadata.get(keyspace.dedupKey(ledger.streamId));
      checkpointEnd = stored === undefined ? undefined : codec.decode(stored.value, stored.key).endOffset;
      expect(checkpointEnd).toBe(6);
    });

    await h.restart({ crash: true });
    const again = await producer(h, "app");
    expect(again.last).toBe(6n);
    await sendAll(again.client, "app", [5n, 6n, 7n]);
    expect(again.client.commands("SEND_RECEIPT").map((receipt) => receipt.messageId?.entryId)).toEqual([
      DUPLICATE_ID.entryId,
      DUPLICATE_ID.entryId,
      7n,
    ]);
    expect(await entryCount(h)).toBe(8);
  });

  test("a resend of a send still in flight waits for its append and is receipted with the original's MessageId", async () => {
    const h = start();
    const { client } = await producer(h, "app");
    await sendAll(client, "app", [0n]);
    const held = hold();
    const append = h.streams.append.bind(h.streams);
    const spy = vi.spyOn(h.streams, "append").mockImplementationOnce(async (...args) => {
      await held.promise;
      return append(...args);
    });
    sendEntry(client, 1n, 1n, messageEntry("app", 1n, "m1"));
    await vi.waitFor(() => expect(spy).toHaveBeenCalled());
    client.connection.close();

    const again = await producer(h, "app");
    expect(again.last).toBe(1n);
    sendEntry(again.client, 1n, 1n, messageEntry("app", 1n, "m1"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sendAnswers(again.client)).toEqual([]);
    held.release();
    const [receipt] = await again.client.waitFor("SEND_RECEIPT");
    expect(receipt?.messageId?.entryId).toBe(1n);
    expect(await storedTexts(h)).toEqual(["m0", "m1"]);
  });

  test("a resend of a send in flight that fails is refused retryable; resent once the topic settled, it is stored once", async () => {
    const h = start();
    const { client } = await producer(h, "app");
    const held = hold();
    const spy = vi.spyOn(h.streams, "append").mockImplementationOnce(async () => {
      await held.promise;
      throw new AppendFailedError(
        ErrorCode.PRIMARY_WAL_WRITE_FAILED,
        "injected refusal",
        "KNOWN_NOT_COMMITTED",
        undefined,
      );
    });
    sendEntry(client, 1n, 0n, messageEntry("app", 0n, "m0"));
    await vi.waitFor(() => expect(spy).toHaveBeenCalled());
    client.connection.close();

    const again = await producer(h, "app");
    sendEntry(again.client, 1n, 0n, messageEntry("app", 0n, "m0"));
    await again.client.connection.idle();
    held.release();
    const [refusal] = await again.client.waitFor("SEND_ERROR");
    expect(refusal).toMatchObject({ sequenceId: 0n, error: ServerError.PersistenceError });
    expect(refusal?.message).toContain("not known yet");
    again.client.connection.close();

    const third = await producer(h, "app");
    await vi.waitFor(async () => {
      await sendAll(third.client, "app", [0n]);
      expect(third.client.commands("SEND_RECEIPT")).toHaveLength(1);
    });
    expect(third.client.commands("SEND_RECEIPT")[0]?.messageId?.entryId).toBe(0n);
    expect(await storedTexts(h)).toEqual(["m0"]);
  });
});

describe("deduplication over uncertain appends", () => {
  const uncertain: BrokerHarnessOptions = {
    storeOptions: { autoRecovery: false },
    ledgerLimits: { recoveryWaitMs: 20, retryMinDelayMs: 1, retryMaxDelayMs: 5 },
  };

  test("committed after the producer gave up: a retryable error, refusals while it is resolved, then the resend is a duplicate", async () => {
    const h = start(uncertain);
    const { client } = await producer(h, "app");
    await sendAll(client, "app", [0n]);
    const recovery = hold();
    const recoverAppend = h.streams.recoverAppend.bind(h.streams);
    vi.spyOn(h.streams, "recoverAppend").mockImplementation(async (...args) => {
      await recovery.promise;
      return recoverAppend(...args);
    });
    h.metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: isHeadCommit });
    await sendAll(client, "app", [1n]);
    expect(client.commands("SEND_ERROR")[0]).toMatchObject({ sequenceId: 1n, error: ServerError.PersistenceError });
    client.connection.close();

    const again = await producer(h, "app");
    await sendAll(again.client, "app", [1n]);
    expect(again.client.commands("SEND_ERROR")[0]).toMatchObject({
      sequenceId: 1n,
      error: ServerError.PersistenceError,
    });

    again.client.connection.close();
    recovery.release();
    const ledger = await h.broker.context.ledgers.open(TOPIC);
    await vi.waitFor(() => expect(ledger.state).toBe("OPEN"));
    const third = await producer(h, "app");
    await sendAll(third.client, "app", [1n, 2n]);
    expect(third.client.commands("SEND_RECEIPT").map((receipt) => receipt.messageId?.entryId)).toEqual([
      DUPLICATE_ID.entryId,
      2n,
    ]);
    expect(await storedTexts(h)).toEqual(["m0", "m1", "m2"]);
  });

  test("not committed: the producer gets a retryable error and its resend is stored exactly once", async () => {
    const h = start({ ...uncertain, ledgerLimits: { ...uncertain.ledgerLimits, appendTimeoutMs: 50 } });
    const { client } = await producer(h, "app");
    await sendAll(client, "app", [0n]);
    h.metadata.faults.add({ op: "txn", mode: "hang-until-aborted", when: isHeadCommit });
    await sendAll(client, "app", [1n]);
    const [refusal] = client.commands("SEND_ERROR");
    expect(refusal?.sequenceId).toBe(1n);
    expect(RESENT_BY_CLIENTS).toContain(refusal?.error);
    client.connection.close();

    const ledger = await h.broker.context.ledgers.open(TOPIC);
    await vi.waitFor(() => expect(ledger.state).toBe("OPEN"));
    const again = await producer(h, "app");
    expect(again.last).toBe(0n);
    await sendAll(again.client, "app", [1n]);
    expect(again.client.commands("SEND_RECEIPT")[0]?.messageId?.entryId).toBe(1n);
    expect(await storedTexts(h)).toEqual(["m0", "m1"]);
  });
});

describe("deduplication of chunked messages", () => {
  test("chunks before the last are not remembered: a message cut short by a crash is stored whole on resend", async () => {
    const h = start();
    const { client } = await producer(h, "chunker");
    const chunk = (id: number): Uint8Array => messageEntry("chunker", 0n, `c${String(id)}`, { chunk: { id, of: 3 } });
    sendEntry(client, 1n, 0n, chunk(0));
    sendEntry(client, 1n, 0n, chunk(1));
    await client.waitFor("SEND_RECEIPT", 2);
    await h.restart({ crash: true });

    const again = await producer(h, "chunker");
    expect(again.last).toBe(-1n);
    for (const id of [0, 1, 2]) sendEntry(again.client, 1n, 0n, chunk(id));
    await again.client.waitFor("SEND_RECEIPT", 3);
    expect(again.client.commands("SEND_RECEIPT").map((receipt) => receipt.messageId?.entryId)).toEqual([2n, 3n, 4n]);
    expect(await storedTexts(h)).toEqual(["c0", "c1", "c0", "c1", "c2"]);
    again.client.connection.close();
    const resumed = await producer(h, "chunker");
    expect(resumed.last).toBe(0n);
  });
});
