// A lifecycle transition planned from a lane's cached head that another store has since moved: a change the cached
// head refuses (a trim beyond its committed end) is planned again from the stored head before it is refused.
import { afterEach, describe, expect, it } from "vitest";
import { ErrorCode } from "../src/errors/error-code.js";
import { AppendProtocolHarness, opaqueBatch } from "../src/testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";
import { expectNereusError } from "../src/testing/rejections.js";

const harnesses: AppendProtocolHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((item) => item.dispose()));
});

describe("head transitions from a stale cached head", () => {
  it("trims to an end another store appended after this store cached the head", async () => {
    const harness = new AppendProtocolHarness(new InMemoryMetadataStore());
    harnesses.push(harness);
    const writer = harness.open({ autoRecovery: false });
    const trimmer = harness.open({ autoRecovery: false });
    const { streamId } = await writer.createStream("stale", { profile: "OBJECT_WAL_SYNC_OBJECT" });
    await writer.append(streamId, opaqueBatch("a", "b"));
    expect((await trimmer.trim(streamId, 1)).trimOffset).toBe(1);
    await writer.append(streamId, opaqueBatch("c"));
    const trimmed = await trimmer.trim(streamId, 3);
    expect(trimmed).toMatchObject({ trimOffset: 3, committedEndOffset: 3 });
    await expectNereusError(trimmer.trim(streamId, 4), ErrorCode.INVALID_ARGUMENT);
  });
});
