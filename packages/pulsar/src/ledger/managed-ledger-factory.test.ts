// The factory over a real StreamStore: profile choice, shared opens, topics that must exist, delete + recreate as a
// new incarnation whose MessageIds never match the old ones, and reopening after a restart.
import { ErrorCode } from "@nereus/core";
import { expectNereusError, rejectionOf } from "@nereus/core/testing";
import { afterEach, describe, expect, test } from "vitest";
import { ledgerRefusalOf } from "./ledger-errors.js";
import { LedgerHarness } from "../../test/ledger-harness.js";
import { thrownError } from "../../test/thrown-error.js";

let harness: LedgerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("ManagedLedgerFactory", () => {
  test("a new topic's profile: explicit choice, else the policy's, else the default; fixed afterwards", async () => {
    harness = new LedgerHarness(
      {},
      { profilePolicy: (topic) => (topic.namespace === "fast" ? "OBJECT_WAL_ASYNC_OBJECT" : undefined) },
    );
    expect((await harness.factory.open("plain")).profile).toBe("OBJECT_WAL_SYNC_OBJECT");
    expect((await harness.factory.open("acme/fast/t")).profile).toBe("OBJECT_WAL_ASYNC_OBJECT");
    expect((await harness.factory.open("acme/fast/u", { profile: "OBJECT_WAL" })).profile).toBe(
      "OBJECT_WAL_SYNC_OBJECT",
    );
    await harness.factory.closeLedger("plain");
    expect((await harness.factory.open("plain", { profile: "OBJECT_WAL_ASYNC_OBJECT" })).profile).toBe(
      "OBJECT_WAL_SYNC_OBJECT",
    );
  });

  test("concurrent opens share one ledger; a closed one is replaced on the next open", async () => {
    harness = new LedgerHarness();
    const [left, right] = await Promise.all([
      harness.factory.open("shared"),
      harness.factory.open("persistent://public/default/shared"),
    ]);
    expect(left).toBe(right);
    expect(await harness.factory.opened("shared")).toBe(left);
    await left!.close();
    const reopened = await harness.factory.open("shared");
    expect(reopened).not.toBe(left);
    expect(reopened.ledgerId).toBe(left!.ledgerId);
  });

  test("open without create fails TOPIC_NOT_FOUND for an unknown topic; bad names fail before any I/O", async () => {
    harness = new LedgerHarness();
    const error = await expectNereusError(
      harness.factory.open("absent", { create: false }),
      ErrorCode.STREAM_NOT_FOUND,
    );
    expect(ledgerRefusalOf(error)).toBe("TOPIC_NOT_FOUND");
    await expectNereusError(harness.factory.open("non-persistent://public/default/x"), ErrorCode.INVALID_ARGUMENT);
  });

  test("delete + recreate: a new incarnation, stream and ledger id; positions of the old one fail cleanly", async () => {
    harness = new LedgerHarness();
    const old = await harness.factory.open("recycled");
    const oldPosition = (await old.addEntry(bytes("old"))).position;
    const deleted = await harness.factory.delete("recycled");
    expect(deleted).toMatchObject({ incarnation: 1, state: "DELETED", ledgerId: old.ledgerId });
    expect(old.state).toBe("CLOSED");
    const fresh = await harness.factory.open("recycled");
    expect(fresh.topic.incarnation).toBe(2);
    expect(fresh.ledgerId > old.ledgerId).toBe(true);
    expect(fresh.streamId).not.toBe(old.streamId);
    expect(fresh.bounds()).toEqual({ trimOffset: 0, committedEndOffset: 0 });
    await fresh.addEntry(bytes("new"));
    const error = thrownError(
      () => fresh.positions.seekOffset(oldPosition, fresh.bounds()),
      ErrorCode.INVALID_ARGUMENT,
    );
    expect(ledgerRefusalOf(error)).toBe("LEDGER_MISMATCH");
    expect(await harness.factory.delete("never-created")).toBeUndefined();
  });

  test("after a restart a topic reopens with the same ledger id, entries and cursors", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("durable");
    const cursor = await ledger.cursors.createCursor("sub", { initialOffset: "earliest" });
    for (const text of ["a", "b", "c"]) await ledger.addEntry(bytes(text));
    await cursor.cumulativeAck(0);
    await harness.restart();
    const reopened = await harness.factory.open("durable", { create: false });
    expect(reopened.ledgerId).toBe(ledger.ledgerId);
    expect(reopened.lastConfirmedEntry()).toEqual({ ledgerId: ledger.ledgerId, entryId: 2n });
    expect(reopened.cursors.get("sub")?.markDeleteOffset).toBe(1);
    expect((await reopened.addEntry(bytes("d"))).offset).toBe(3);
  });

  test("a closed factory refuses to open", async () => {
    harness = new LedgerHarness();
    const ledger = await harness.factory.open("x");
    await harness.factory.close();
    expect(ledger.state).toBe("CLOSED");
    expect(ledgerRefusalOf(await rejectionOf(ledger.addEntry(bytes("y"))))).toBe("CLOSED");
    await expectNereusError(harness.factory.open("x"), ErrorCode.STORAGE_CLOSED);
  });
});
