// The managed ledger over a real StreamStore and cursor store on core's in-memory providers: byte-exact entries at
// their positions, reads, trims through the cursors' retention floor, termination surviving a reopen, and an
// uncertain append (a lost head-commit response) resolved exactly once.
import { ErrorCode } from "@nereus/core";
import { expectNereusError } from "@nereus/core/testing";
import { afterEach, describe, expect, test, vi } from "vitest";
import { encodeMessageEntry } from "../protocol/index.js";
import { LedgerHarness, isHeadCommit } from "../../test/ledger-harness.js";

let harness: LedgerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function entry(sequenceId: number, text: string): Uint8Array {
  return encodeMessageEntry(
    { producerName: "p", sequenceId: BigInt(sequenceId), publishTime: 1_700_000_000_000n + BigInt(sequenceId) },
    new TextEncoder().encode(text),
  );
}

describe("managed ledger on a real stream store", () => {
  test("entries are stored byte-exact, one per offset, at (virtual ledger id, offset)", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("orders");
    expect(ledger.ledgerId >= 2n ** 62n).toBe(true);
    expect(ledger.lastConfirmedEntry()).toEqual({ ledgerId: ledger.ledgerId, entryId: -1n });
    const sent = [entry(0, "a"), entry(1, "bb"), entry(2, "ccc")];
    const positions = [];
    for (const bytes of sent) positions.push((await ledger.addEntry(bytes)).position);
    expect(positions).toEqual([0n, 1n, 2n].map((entryId) => ({ ledgerId: ledger.ledgerId, entryId })));
    const read = await ledger.readEntries(0, { maxEntries: 10 });
    expect(read.entries.map((stored) => stored.payload)).toEqual(sent);
    expect(read.entries.map((stored) => stored.position)).toEqual(positions);
    expect(read.reachedEnd).toBe(true);
    expect(ledger.numberOfEntries()).toBe(3);
    expect(ledger.totalSize()).toBe(sent.reduce((sum, bytes) => sum + bytes.length, 0));
    expect(ledger.lastConfirmedEntry()).toEqual(positions[2]);
    const head = await harness.streams.getHead(ledger.streamId);
    expect(head.attributes).toEqual({ "nereus.payloadMapping": "PULSAR_ENTRY_V1" });
    expect((await ledger.readEntries(3)).entries).toEqual([]);
    expect((await ledger.readEntries(1, { maxEntries: 1 })).entries.map((stored) => stored.offset)).toEqual([1]);
  });

  test("concurrent appends are group-committed at consecutive offsets and settle in call order", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("busy");
    const settled: number[] = [];
    const sent = Array.from({ length: 50 }, (_, index) => entry(index, `m${String(index)}`));
    await Promise.all(sent.map((bytes) => ledger.addEntry(bytes).then((result) => settled.push(result.offset))));
    expect(settled).toEqual([...Array(50).keys()]);
    expect((await ledger.readEntries(0, { maxEntries: 100 })).entries.map((read) => read.payload)).toEqual(sent);
  });

  test("a lost head-commit response: the entry is recovered exactly once at its original position", async () => {
    harness = new LedgerHarness({ autoRecovery: false });
    const ledger = await harness.factory.open("lost");
    await ledger.addEntry(entry(0, "warm"));
    const recoverAppend = vi.spyOn(harness.streams, "recoverAppend");
    harness.metadata.faults.add({ op: "txn", mode: "apply-then-lose-response", when: isHeadCommit });
    expect((await ledger.addEntry(entry(1, "uncertain"))).offset).toBe(1);
    expect(recoverAppend).toHaveBeenCalled();
    await vi.waitFor(() => expect(ledger.state).toBe("OPEN"));
    expect((await ledger.addEntry(entry(2, "after"))).offset).toBe(2);
    const stored = await ledger.readEntries(0);
    expect(stored.entries.map((read) => read.offset)).toEqual([0, 1, 2]);
  });

  test("a head commit that hung past its deadline and never applied: it and the entry behind it fail, nothing is stored out of order", async () => {
    harness = new LedgerHarness(
      { autoRecovery: false },
      { ledgerLimits: { appendTimeoutMs: 50, retryMinDelayMs: 1, retryMaxDelayMs: 5 } },
    );
    const ledger = await harness.factory.open("hung");
    await ledger.addEntry(entry(0, "warm"));
    harness.metadata.faults.add({ op: "txn", mode: "hang-until-aborted", when: isHeadCommit });
    const hung = ledger.addEntry(entry(1, "hung"));
    const behind = ledger.addEntry(entry(2, "behind"));
    const outcomes = await Promise.allSettled([hung, behind]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    await vi.waitFor(() => expect(ledger.state).toBe("OPEN"));
    expect((await ledger.addEntry(entry(1, "retried"))).offset).toBe(1);
    const stored = await ledger.readEntries(0);
    expect(stored.entries.map((read) => read.payload)).toEqual([entry(0, "warm"), entry(1, "retried")]);
  });

  test("a head commit that failed before applying: the caller fails, the ledger re-reads its end and goes on", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("refused");
    await ledger.addEntry(entry(0, "a"));
    harness.metadata.faults.add({ op: "txn", mode: "fail-before-apply", when: isHeadCommit });
    await expect(ledger.addEntry(entry(1, "b"))).rejects.toThrow();
    await vi.waitFor(() => expect(ledger.state).toBe("OPEN"));
    expect((await ledger.addEntry(entry(2, "c"))).offset).toBe(1);
    expect((await ledger.readEntries(0)).entries).toHaveLength(2);
  });

  test("trims follow the cursors' floor; reads below the trim fail OFFSET_TRIMMED", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("trimmed");
    const cursor = await ledger.cursors.createCursor("sub", { initialOffset: "earliest" });
    for (let index = 0; index < 5; index += 1) await ledger.addEntry(entry(index, `m${String(index)}`));
    await cursor.cumulativeAck(2);
    expect(await ledger.trimConsumed()).toBe(3);
    expect(ledger.bounds()).toEqual({ trimOffset: 3, committedEndOffset: 5 });
    expect(ledger.firstPosition()).toEqual({ ledgerId: ledger.ledgerId, entryId: 2n });
    expect(ledger.numberOfEntries()).toBe(2);
    await expectNereusError(ledger.readEntries(0), ErrorCode.OFFSET_TRIMMED);
    expect(await ledger.trimConsumed({ upTo: 1 })).toBe(3);
    await ledger.cursors.deleteCursor("sub");
    expect(await ledger.trimConsumed({ upTo: 4 })).toBe(4);
    expect(await ledger.trimConsumed()).toBe(5);
  });

  test("a parked reader wakes when the entry it waits for commits", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("tail");
    const woken = vi.fn();
    const stop = ledger.onEntriesAvailable(woken);
    const parked = ledger.waitForEntry(0);
    await ledger.addEntry(entry(0, "x"));
    await parked;
    expect(woken).toHaveBeenCalled();
    stop();
    await ledger.addEntry(entry(1, "y"));
    expect(woken).toHaveBeenCalledTimes(1);
  });

  test("a terminated ledger stays terminated across a restart; its entries stay readable", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("final");
    await ledger.addEntry(entry(0, "x"));
    expect(await ledger.terminate()).toEqual({ ledgerId: ledger.ledgerId, entryId: 0n });
    await harness.restart();
    const reopened = await harness.factory.open("final");
    expect(reopened.state).toBe("TERMINATED");
    expect(reopened.ledgerId).toBe(ledger.ledgerId);
    await expectNereusError(reopened.addEntry(entry(1, "y")), ErrorCode.STREAM_NOT_ACTIVE);
    expect((await reopened.readEntries(0)).entries).toHaveLength(1);
  });
});
