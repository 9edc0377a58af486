// The append path of the managed ledger against a scripted store: admission order, the fence an uncertain append
// raises (committed, not committed, still unresolved, unresolvable), refusals and the re-read of the end after them.
import { AppendFailedError, ErrorCode, streamIdFromName } from "@nereus/core";
import { expectNereusError, rejectionOf } from "@nereus/core/testing";
import { describe, expect, test, vi } from "vitest";
import { topicStreamName, type PulsarTopic } from "../topics/pulsar-topic.js";
import { ledgerRefusalOf } from "./ledger-errors.js";
import { ManagedLedger } from "./managed-ledger.js";
import type { ManagedLedgerLimits } from "./managed-ledger-options.js";
import { NO_CURSORS, ScriptedStreams, hold } from "../../test/scripted-streams.js";

const NAME = "persistent://public/default/scripted";
const TOPIC: PulsarTopic = {
  name: NAME,
  incarnation: 1,
  state: "ACTIVE",
  streamName: topicStreamName(NAME, 1),
  streamId: streamIdFromName(topicStreamName(NAME, 1)),
  ledgerId: 2n ** 62n + 1n,
  profile: "OBJECT_WAL_SYNC_OBJECT",
  createdAtMillis: 0,
};

function ledgerOver(streams: ScriptedStreams, limits: Partial<ManagedLedgerLimits> = {}): ManagedLedger {
  return new ManagedLedger({
    topic: TOPIC,
    streams,
    cursors: NO_CURSORS,
    head: streams.head(),
    limits: { retryMinDelayMs: 1, retryMaxDelayMs: 2, ...limits },
  });
}

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("managed ledger appends", () => {
  test("entries land at consecutive offsets and settle in call order", async () => {
    const streams = new ScriptedStreams();
    const ledger = ledgerOver(streams);
    const settled: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        ledger.addEntry(bytes(`m${String(index)}`)).then((result) => {
          settled.push(result.offset);
          return result;
        }),
      ),
    );
    expect(results.map((result) => result.offset)).toEqual([...Array(10).keys()]);
    expect(settled).toEqual([...Array(10).keys()]);
    expect(results[3]?.position).toEqual({ ledgerId: TOPIC.ledgerId, entryId: 3n });
    expect(ledger.lastConfirmedEntry()).toEqual({ ledgerId: TOPIC.ledgerId, entryId: 9n });
    expect(ledger.totalSize()).toBe(20);
  });

  test("an uncertain append that committed: writes are fenced until the verdict, then the caller gets its position", async () => {
    const streams = new ScriptedStreams();
    const ledger = ledgerOver(streams);
    await ledger.addEntry(bytes("a"));
    streams.recoveryHold = hold();
    streams.script.push({ kind: "uncertain", committed: true });
    const uncertain = ledger.addEntry(bytes("b"));
    await vi.waitFor(() => expect(ledger.state).toBe("WRITE_FENCED"));
    const refused = await expectNereusError(ledger.addEntry(bytes("refused")), ErrorCode.FENCED_APPEND);
    expect(ledgerRefusalOf(refused)).toBe("WRITE_FENCED");
    expect(refused.retryable).toBe(true);
    streams.recoveryHold.release();
    expect((await uncertain).offset).toBe(1);
    expect(ledger.state).toBe("OPEN");
    expect((await ledger.addEntry(bytes("c"))).offset).toBe(2);
    expect(streams.entries.map((entry) => new TextDecoder().decode(entry))).toEqual(["a", "b", "c"]);
  });

  test("an uncertain append that did not commit fails once; entries admitted behind it fail too; then the end is re-read", async () => {
    const streams = new ScriptedStreams();
    const ledger = ledgerOver(streams);
    streams.script.push({ kind: "uncertain", committed: false });
    const first = ledger.addEntry(bytes("lost"));
    const behind = ledger.addEntry(bytes("behind"));
    const firstError = await rejectionOf(first);
    expect(AppendFailedError.isAppendFailure(firstError) && firstError.outcome).toBe("KNOWN_NOT_COMMITTED");
    await expectNereusError(behind, ErrorCode.OFFSET_CONFLICT);
    await vi.waitFor(() => expect(ledger.state).toBe("OPEN"));
    expect((await ledger.addEntry(bytes("retried"))).offset).toBe(0);
    expect(streams.entries.map((entry) => new TextDecoder().decode(entry))).toEqual(["retried"]);
  });

  test("an append still unresolved after recoveryWaitMs fails MAY_HAVE_COMMITTED; the fence stays until recovery ends", async () => {
    const streams = new ScriptedStreams();
    const ledger = ledgerOver(streams, { recoveryWaitMs: 20 });
    streams.recoveryHold = hold();
    streams.script.push({ kind: "uncertain", committed: true });
    const error = await rejectionOf(ledger.addEntry(bytes("slow")));
    expect(AppendFailedError.isAppendFailure(error) && error.outcome).toBe("MAY_HAVE_COMMITTED");
    expect(ledger.state).toBe("WRITE_FENCED");
    streams.recoveryHold.release();
    await vi.waitFor(() => expect(ledger.state).toBe("OPEN"));
    // It had committed: the ledger end includes it, and the next entry follows it.
    expect(ledger.bounds().committedEndOffset).toBe(1);
    expect((await ledger.addEntry(bytes("next"))).offset).toBe(1);
  });

  test("recovery is retried until it answers", async () => {
    const streams = new ScriptedStreams();
    const ledger = ledgerOver(streams);
    streams.unresolvedRecoveries = 3;
    streams.script.push({ kind: "uncertain", committed: true });
    expect((await ledger.addEntry(bytes("x"))).offset).toBe(0);
    expect(streams.recoverCalls).toBe(4);
  });

  test("an attempt the store cannot resolve fails the ledger: writes refused until reopened, reads go on", async () => {
    const streams = new ScriptedStreams();
    const ledger = ledgerOver(streams);
    await ledger.addEntry(bytes("kept"));
    streams.script.push({ kind: "uncertain", committed: true });
    streams.forgotten.add("run/1");
    const parked = ledger.waitForEntry(5);
    const error = await expectNereusError(ledger.addEntry(bytes("x")), ErrorCode.FENCED_APPEND);
    expect(ledgerRefusalOf(error)).toBe("LEDGER_FAILED");
    await parked;
    expect(ledger.state).toBe("FAILED");
    expect(ledgerRefusalOf(await rejectionOf(ledger.addEntry(bytes("y"))))).toBe("LEDGER_FAILED");
    expect((await ledger.readEntries(0)).entries).toHaveLength(2);
  });

  test("a refusal that proves nothing committed fences only until the end is re-read", async () => {
    const streams = new ScriptedStreams();
    const ledger = ledgerOver(streams);
    streams.script.push({ kind: "refuse", code: ErrorCode.PRIMARY_WAL_WRITE_FAILED });
    await expectNereusError(ledger.addEntry(bytes("x")), ErrorCode.PRIMARY_WAL_WRITE_FAILED);
    await vi.waitFor(() => expect(ledger.state).toBe("OPEN"));
    expect((await ledger.addEntry(bytes("y"))).offset).toBe(0);
  });

  test("another writer fencing the stream, or a result that is not the admitted entry, fails the ledger", async () => {
    const fencedStreams = new ScriptedStreams();
    const fenced = ledgerOver(fencedStreams);
    fencedStreams.script.push({ kind: "refuse", code: ErrorCode.FENCED_APPEND });
    await expectNereusError(fenced.addEntry(bytes("x")), ErrorCode.FENCED_APPEND);
    expect(fenced.state).toBe("FAILED");

    const skewedStreams = new ScriptedStreams();
    const skewed = ledgerOver(skewedStreams);
    skewedStreams.script.push({ kind: "wrong-result" });
    await expectNereusError(skewed.addEntry(bytes("x")), ErrorCode.METADATA_INVARIANT_VIOLATION);
    expect(skewed.state).toBe("FAILED");
  });

  test("terminate seals after the admitted appends; later appends are refused and parked readers wake", async () => {
    const streams = new ScriptedStreams();
    const ledger = ledgerOver(streams);
    const pending = ledger.addEntry(bytes("last"));
    const parked = ledger.waitForEntry(1);
    const lastConfirmed = await ledger.terminate();
    expect((await pending).offset).toBe(0);
    expect(lastConfirmed).toEqual({ ledgerId: TOPIC.ledgerId, entryId: 0n });
    await parked;
    expect(ledger.state).toBe("TERMINATED");
    expect(ledgerRefusalOf(await rejectionOf(ledger.addEntry(bytes("late"))))).toBe("TERMINATED");
    expect(await ledger.terminate()).toEqual(lastConfirmed);
  });

  test("close refuses every call and fails parked readers", async () => {
    const streams = new ScriptedStreams();
    const ledger = ledgerOver(streams);
    const parked = ledger.waitForEntry(0);
    await ledger.close();
    await ledger.close();
    expect(ledgerRefusalOf(await rejectionOf(parked))).toBe("CLOSED");
    await expectNereusError(ledger.addEntry(bytes("x")), ErrorCode.STORAGE_CLOSED);
    await expectNereusError(ledger.readEntries(0), ErrorCode.STORAGE_CLOSED);
    expect(ledger.state).toBe("CLOSED");
  });

  test("bad entries are refused before any I/O", async () => {
    const streams = new ScriptedStreams();
    const ledger = ledgerOver(streams);
    await expectNereusError(ledger.addEntry(new Uint8Array()), ErrorCode.INVALID_ARGUMENT);
    await expectNereusError(ledger.addEntry("text" as unknown as Uint8Array), ErrorCode.INVALID_ARGUMENT);
    expect(streams.entries).toHaveLength(0);
    expect(ledger.state).toBe("OPEN");
  });
});
