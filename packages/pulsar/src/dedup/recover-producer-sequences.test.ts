// Recovery of the producer sequence table over a real stream store: replay of every retained entry, a checkpoint
// plus the entries after it, and checkpoints that do not fit or cannot be read (ignored).
import { afterEach, describe, expect, test } from "vitest";
import { LedgerHarness } from "../../test/ledger-harness.js";
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import { encodeMessageEntry } from "../protocol/index.js";
import {
  catchUpProducerSequences,
  recoverProducerSequences,
  writeDedupCheckpoint,
} from "./recover-producer-sequences.js";
import { ProducerSequences } from "./producer-sequences.js";

let harness: LedgerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function send(ledger: ManagedLedger, producerName: string, sequenceId: bigint, highest?: bigint): Promise<void> {
  const metadata = {
    producerName,
    sequenceId,
    publishTime: 1n,
    ...(highest === undefined
      ? {}
      : { highestSequenceId: highest, numMessagesInBatch: Number(highest - sequenceId) + 1 }),
  };
  await ledger.addEntry(encodeMessageEntry(metadata, new Uint8Array([1])));
}

async function recover(ledger: ManagedLedger) {
  const h = harness!;
  const head = await h.streams.getHead(ledger.streamId);
  return recoverProducerSequences({
    metadata: h.metadata,
    streams: h.streams,
    keyspace: h.factory.topics.keyspace,
    head,
    readBytes: 64,
  });
}

describe("recoverProducerSequences", () => {
  test("without a checkpoint every retained entry is replayed", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("dedup");
    await send(ledger, "a", 0n);
    await send(ledger, "b", 0n, 4n);
    await send(ledger, "a", 1n);
    const recovered = await recover(ledger);
    expect(recovered.checkpoint).toBeUndefined();
    expect(recovered.replayedEntries).toBe(3);
    expect(recovered.sequences.lastPersisted("a")).toBe(1n);
    expect(recovered.sequences.lastPersisted("b")).toBe(4n);
    expect(recovered.sequences.appliedEnd).toBe(3);
  });

  test("a checkpoint plus the entries after it; the result matches a full replay", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("dedup");
    const keyspace = harness.factory.topics.keyspace;
    await send(ledger, "a", 0n);
    await send(ledger, "b", 7n);
    await writeDedupCheckpoint(harness.metadata, keyspace, ledger.streamId, (await recover(ledger)).sequences);
    await send(ledger, "a", 1n);
    await send(ledger, "c", 3n);
    const recovered = await recover(ledger);
    expect(recovered.checkpoint?.endOffset).toBe(2);
    expect(recovered.replayedEntries).toBe(2);
    const full = new ProducerSequences();
    for (const [offset, name, sequenceId] of [
      [0, "a", 0n],
      [1, "b", 7n],
      [2, "a", 1n],
      [3, "c", 3n],
    ] as const) {
      full.applyEntry(offset, name, sequenceId);
    }
    expect(recovered.sequences.checkpoint(ledger.streamId)).toEqual(full.checkpoint(ledger.streamId));
  });

  test("a checkpoint below the trim still counts; the trimmed entries are not read", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("dedup");
    await send(ledger, "a", 5n);
    await writeDedupCheckpoint(
      harness.metadata,
      harness.factory.topics.keyspace,
      ledger.streamId,
      (await recover(ledger)).sequences,
    );
    await send(ledger, "a", 6n);
    await send(ledger, "b", 1n);
    await ledger.trimConsumed({ upTo: 2 });
    const recovered = await recover(ledger);
    expect(recovered.replayedEntries).toBe(1);
    expect(recovered.sequences.lastPersisted("a")).toBe(5n);
    expect(recovered.sequences.lastPersisted("b")).toBe(1n);
  });

  test("a checkpoint beyond the committed end, or one that cannot be read, is ignored", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("dedup");
    const keyspace = harness.factory.topics.keyspace;
    await send(ledger, "a", 3n);
    const ahead = new ProducerSequences(50);
    ahead.applyEntry(60, "a", 1_000n);
    await writeDedupCheckpoint(harness.metadata, keyspace, ledger.streamId, ahead);
    expect((await recover(ledger)).sequences.lastPersisted("a")).toBe(3n);
    const key = keyspace.dedupKey(ledger.streamId);
    await harness.metadata.txn({ compares: [], writes: [{ type: "put", key, value: new Uint8Array([1, 2, 3]) }] });
    const recovered = await recover(ledger);
    expect(recovered.checkpoint).toBeUndefined();
    expect(recovered.sequences.lastPersisted("a")).toBe(3n);
  });

  test("deleting the topic removes its checkpoint", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("dedup");
    const keyspace = harness.factory.topics.keyspace;
    await send(ledger, "a", 3n);
    await writeDedupCheckpoint(harness.metadata, keyspace, ledger.streamId, (await recover(ledger)).sequences);
    await harness.factory.delete("dedup");
    expect(await harness.metadata.get(keyspace.dedupKey(ledger.streamId))).toBeUndefined();
  });
});

describe("catchUpProducerSequences", () => {
  test("a live table missing an entry (its append failed uncertain, then committed) learns it from the stream", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("dedup");
    const sequences = new ProducerSequences();
    await send(ledger, "a", 0n);
    sequences.applyEntry(0, "a", 0n);
    await send(ledger, "a", 1n);
    await send(ledger, "a", 2n);
    const head = await harness.streams.getHead(ledger.streamId);
    expect(await catchUpProducerSequences({ sequences, streams: harness.streams, head })).toBe(2);
    expect(sequences.lastPersisted("a")).toBe(2n);
    expect(sequences.check("a", 1n)).toBe("duplicate");
    expect(await catchUpProducerSequences({ sequences, streams: harness.streams, head })).toBe(0);
  });
});
