import { ErrorCode, MetadataAmbiguousError } from "@nereus/core";
import type { MetadataFaultMode } from "@nereus/core/testing";
import { InMemoryMetadataStore, InMemoryObjectStore, expectNereusError } from "@nereus/core/testing";
import type { CursorLimits } from "../store/cursor-store-options.js";
import { describe, expect, it, vi } from "vitest";
import type { CursorHandle } from "./cursor-handle.js";
import type { HydratedCursor } from "./hydrated-cursor.js";
import { cursorFixture as fixtureOver } from "./test-fixtures/cursor-fixture.js";

function cursorFixture(limits: Partial<CursorLimits> = {}) {
  return fixtureOver({ metadata: new InMemoryMetadataStore(), objects: new InMemoryObjectStore() }, limits);
}

interface MutationCase {
  readonly name: string;
  readonly run: (handle: CursorHandle) => Promise<{ alreadyApplied: boolean }>;
  readonly check: (state: HydratedCursor) => void;
}

/** Every mutation from the same start (markDelete 10, entries 12 and 13 acked), with the one state it must end in. */
const MUTATIONS: readonly MutationCase[] = [
  {
    name: "cumulative ack",
    run: (handle) => handle.cumulativeAck(11),
    check: (state) => expect(state.root.markDeleteOffset).toBe(14),
  },
  {
    name: "individual ack",
    run: (handle) => handle.individualAck([{ offset: 20 }]),
    check: (state) =>
      expect(state.root.inlineRanges).toEqual([
        { start: 12, end: 14 },
        { start: 20, end: 21 },
      ]),
  },
  {
    name: "skip",
    run: (handle) => handle.skip(3, { committedEnd: 100 }),
    check: (state) => expect(state.root.markDeleteOffset).toBe(15),
  },
  {
    name: "forward reset",
    run: (handle) => handle.resetForward(30),
    check: (state) => {
      expect(state.root.markDeleteOffset).toBe(30);
      expect(state.root.ackStateEpoch).toBe(2);
    },
  },
  {
    name: "clear backlog",
    run: (handle) => handle.clearBacklog(40),
    check: (state) => {
      expect(state.root.markDeleteOffset).toBe(40);
      expect(state.root.ackStateEpoch).toBe(2);
    },
  },
  {
    name: "property replacement",
    run: (handle) => handle.replaceProperties(new Map([["k", "v"]])),
    check: (state) => expect(state.root.cursorProperties).toEqual(new Map([["k", "v"]])),
  },
];

async function startingHandle(): Promise<{
  handle: CursorHandle;
  fixture: Awaited<ReturnType<typeof cursorFixture>>;
}> {
  const fixture = await cursorFixture();
  await fixture.createCursor("sub", 10);
  const handle = await fixture.openHandle("sub");
  await handle.individualAck([{ offset: 12 }, { offset: 13 }]);
  return { handle, fixture };
}

describe.each(MUTATIONS)("$name under metadata faults", (mutation) => {
  it.each<MetadataFaultMode>(["apply-then-lose-response", "fail-before-apply"])(
    "ends in exactly one correct state after %s on its CAS",
    async (mode) => {
      const { handle, fixture } = await startingHandle();
      const sequenceBefore = handle.state.root.mutationSequence;
      fixture.metadata.faults.add({ op: "txn", mode });
      expect(await mutation.run(handle)).toEqual({ alreadyApplied: false });
      const stored = await fixture.storedRoot("sub");
      mutation.check(stored);
      expect(stored.root.mutationSequence).toBe(sequenceBefore + 1);
      expect(handle.state.root).toEqual(stored.root);
      expect(handle.state.modRevision).toBe(stored.modRevision);
    },
  );

  it("resolves a lost response whose write did not apply by writing again", async () => {
    const { handle, fixture } = await startingHandle();
    const sequenceBefore = handle.state.root.mutationSequence;
    vi.spyOn(fixture.metadata, "txn").mockRejectedValueOnce(new MetadataAmbiguousError("lost before it applied"));
    expect(await mutation.run(handle)).toEqual({ alreadyApplied: false });
    const stored = await fixture.storedRoot("sub");
    mutation.check(stored);
    expect(stored.root.mutationSequence).toBe(sequenceBefore + 1);
  });
});

describe("CursorHandle under metadata faults", () => {
  it("groups acks whose CAS response was lost and reports each caller's own outcome", async () => {
    const { handle, fixture } = await startingHandle();
    fixture.metadata.faults.add({ op: "txn", mode: "apply-then-lose-response" });
    const results = await Promise.all([
      handle.individualAck([{ offset: 30 }]),
      handle.individualAck([{ offset: 12 }]),
      handle.individualAck([{ offset: 31 }]),
    ]);
    expect(results.map((result) => result.alreadyApplied)).toEqual([false, true, false]);
    expect(fixture.counters.ambiguousWrites).toBe(1);
    expect((await fixture.storedRoot("sub")).root.inlineRanges).toEqual([
      { start: 12, end: 14 },
      { start: 30, end: 32 },
    ]);
  });

  it("times out a write the store never answers and reloads before the next mutation", async () => {
    const fixture = await cursorFixture({ operationTimeoutMs: 50 });
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    fixture.metadata.faults.add({ op: "txn", mode: "hang-until-aborted" });
    await expectNereusError(handle.individualAck([{ offset: 4 }]), ErrorCode.TIMEOUT);
    const reads = fixture.metadata.stats.gets;
    expect(await handle.individualAck([{ offset: 4 }])).toEqual({ alreadyApplied: false });
    expect(fixture.metadata.stats.gets).toBeGreaterThan(reads);
    expect(handle.isAcked(4)).toBe(true);
  });

  it("gives up after maxCasAttempts failed attempts with a retryable error", async () => {
    const fixture = await cursorFixture({ maxCasAttempts: 3 });
    await fixture.createCursor("sub", 0);
    const handle = await fixture.openHandle("sub");
    fixture.metadata.faults.add({ op: "txn", mode: "fail-before-apply", times: 3 });
    const error = await expectNereusError(handle.cumulativeAck(5), ErrorCode.METADATA_CONDITION_FAILED);
    expect(error.retryable).toBe(true);
    expect(await handle.cumulativeAck(5)).toEqual({ alreadyApplied: false });
  });
});

describe("forward reset whose response was lost before another writer moved the root", () => {
  async function resetRacing(otherWrite: (other: CursorHandle) => Promise<unknown>) {
    const { handle, fixture } = await startingHandle();
    const other = await fixture.openHandle("sub");
    const realTxn = fixture.metadata.txn.bind(fixture.metadata);
    vi.spyOn(fixture.metadata, "txn").mockImplementationOnce(async (request, options) => {
      await realTxn(request, options);
      await other.reload();
      await otherWrite(other);
      throw new MetadataAmbiguousError("response lost");
    });
    return { result: handle.resetForward(30), fixture };
  }

  it("accepts the reset as already applied when the root holds epoch + 1 and exactly the reset state", async () => {
    const { result, fixture } = await resetRacing((other) => other.replaceProperties(new Map([["k", "v"]])));
    expect(await result).toEqual({ alreadyApplied: true });
    const stored = await fixture.storedRoot("sub");
    expect(stored.root.ackStateEpoch).toBe(2);
    expect(stored.root.markDeleteOffset).toBe(30);
  });

  it("fails with CURSOR_STATE_CONFLICT when the state after the reset moved on", async () => {
    const { result, fixture } = await resetRacing((other) => other.individualAck([{ offset: 35 }]));
    await expectNereusError(result, ErrorCode.CURSOR_STATE_CONFLICT);
    const stored = await fixture.storedRoot("sub");
    expect(stored.root.ackStateEpoch).toBe(2);
    expect(stored.root.inlineRanges).toEqual([{ start: 35, end: 36 }]);
  });
});

describe("a lost write that applies late (a store without ordered txns)", () => {
  it("is recognised by its bytes when the retry loses to it, so a skip applies once", async () => {
    const { handle, fixture } = await startingHandle();
    const realTxn = fixture.metadata.txn.bind(fixture.metadata);
    let lost: Parameters<typeof realTxn>[0] | undefined;
    vi.spyOn(fixture.metadata, "txn")
      .mockImplementationOnce((request) => {
        lost = request;
        return Promise.reject(new MetadataAmbiguousError("response lost, request still in flight"));
      })
      .mockImplementationOnce(async (request, options) => {
        await realTxn(lost!, options);
        return realTxn(request, options);
      });
    expect(await handle.skip(3, { committedEnd: 100 })).toEqual({ alreadyApplied: false });
    expect((await fixture.storedRoot("sub")).root.markDeleteOffset).toBe(15);
    expect(handle.markDeleteOffset).toBe(15);
  });
});
