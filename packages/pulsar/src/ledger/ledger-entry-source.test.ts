import { afterEach, describe, expect, test, vi } from "vitest";
import { encodeBatchPayload, encodeMessageEntry } from "../protocol/index.js";
import { ledgerEntrySource } from "./ledger-entry-source.js";
import { LedgerHarness } from "../../test/ledger-harness.js";

let harness: LedgerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

function message(publishTime: number, key?: string): Uint8Array {
  return encodeMessageEntry(
    {
      producerName: "p",
      sequenceId: 0n,
      publishTime: BigInt(publishTime),
      ...(key === undefined ? {} : { partitionKey: key }),
    },
    utf8("x"),
  );
}

describe("ledgerEntrySource", () => {
  test("entries come with their message count, sticky key and publish time, bytes unchanged", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("source");
    const batch = encodeMessageEntry(
      { producerName: "p", sequenceId: 0n, publishTime: 20n, numMessagesInBatch: 2 },
      encodeBatchPayload([{ metadata: { orderingKey: utf8("k1") }, payload: utf8("a") }, { payload: utf8("b") }]),
    );
    await ledger.addEntry(message(10, "key"));
    await ledger.addEntry(batch);
    await ledger.addEntry(message(30));
    const source = ledgerEntrySource(ledger);
    const entries = await source.read(0, 10);
    expect(entries.map(({ offset, numMessages, publishTime }) => ({ offset, numMessages, publishTime }))).toEqual([
      { offset: 0, numMessages: 1, publishTime: 10 },
      { offset: 1, numMessages: 2, publishTime: 20 },
      { offset: 2, numMessages: 1, publishTime: 30 },
    ]);
    expect(entries.map((entry) => (entry.key === undefined ? undefined : new TextDecoder().decode(entry.key)))).toEqual(
      ["key", "k1", undefined],
    );
    expect(entries[1]?.bytes).toEqual(batch);
    expect(await source.endOffset()).toBe(3);
    expect(await source.read(3, 10)).toEqual([]);
  });

  test("a read below the trim starts at the trim, even when the trim moved since the ledger last looked", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("source");
    for (let index = 0; index < 5; index += 1) await ledger.addEntry(message(index));
    await harness.streams.trim(ledger.streamId, 3);
    const source = ledgerEntrySource(ledger);
    expect((await source.read(0, 10)).map((entry) => entry.offset)).toEqual([3, 4]);
    expect(ledger.bounds().trimOffset).toBe(3);
  });

  test("findByPublishTime: the first entry published at or after the time, the end when none", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("source");
    for (const time of [10, 20, 20, 30, 40]) await ledger.addEntry(message(time));
    const source = ledgerEntrySource(ledger);
    expect(await source.findByPublishTime(5)).toBe(0);
    expect(await source.findByPublishTime(20)).toBe(1);
    expect(await source.findByPublishTime(21)).toBe(3);
    expect(await source.findByPublishTime(40)).toBe(4);
    expect(await source.findByPublishTime(41)).toBe(5);
  });

  test("listeners hear of new entries until they stop listening", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("source");
    const source = ledgerEntrySource(ledger);
    const listener = vi.fn();
    const stop = source.onEntriesAvailable(listener);
    await ledger.addEntry(message(1));
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    await ledger.addEntry(message(2));
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
