// Lane entry order: a caller enters its stream lane at once when the stream's profile is known and nobody is still
// waiting for it, and otherwise behind the callers already waiting. Either way appends and lane operations of one
// stream commit in call order, also while a cold process is still loading the profile.
import { afterEach, describe, expect, it } from "vitest";
import type { AppendResult } from "../src/domain/append-types.js";
import { ErrorCode } from "../src/errors/error-code.js";
import { AppendProtocolHarness, expectAppendFailure, opaqueBatch } from "../src/testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";

const harnesses: AppendProtocolHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((item) => item.dispose()));
});

describe("lane entry order", () => {
  it("calls made before, during and after a cold profile load commit in call order; a seal in between splits them", async () => {
    const harness = new AppendProtocolHarness(new InMemoryMetadataStore());
    harnesses.push(harness);
    const { streamId } = await harness.open().createStream("entry-order", { profile: "BOOKKEEPER_WAL_ONLY" });
    const cold = harness.open({ groupCommit: false });
    const before: Array<Promise<AppendResult>> = [];
    for (let index = 0; index < 3; index++) before.push(cold.append(streamId, opaqueBatch(`cold-${String(index)}`)));
    // Later callers arrive on every microtask turn while the first ones are still waiting for the profile.
    const during: Array<Promise<AppendResult>> = [];
    for (let index = 0; index < 6; index++) {
      await Promise.resolve();
      during.push(cold.append(streamId, opaqueBatch(`turn-${String(index)}`)));
    }
    const sealed = cold.seal(streamId);
    const after = cold.append(streamId, opaqueBatch("after-seal"));
    const results = await Promise.all([...before, ...during]);
    expect(results.map((result) => result.startOffset)).toEqual(results.map((_result, index) => index));
    expect((await sealed).state).toBe("SEALED");
    await expectAppendFailure(after, { code: ErrorCode.STREAM_NOT_ACTIVE, outcome: "KNOWN_NOT_COMMITTED" });
  });

  it("a warm caller whose deadline already ended fails before entering the lane, as a cold one does", async () => {
    const harness = new AppendProtocolHarness(new InMemoryMetadataStore());
    harnesses.push(harness);
    const store = harness.open();
    const { streamId } = await store.createStream("entry-aborted", { profile: "BOOKKEEPER_WAL_ONLY" });
    const caller = new AbortController();
    caller.abort();
    const failure = await expectAppendFailure(store.append(streamId, opaqueBatch("x"), { signal: caller.signal }), {
      code: ErrorCode.CANCELLED,
      outcome: "KNOWN_NOT_COMMITTED",
    });
    expect(failure.message).toBe("stream store call: cancelled by the caller");
    expect(harness.walIo()).toBe(0);
  });
});
