// The completion boundary runs after the head CAS: its failure is KNOWN_COMMITTED (the range stays committed and
// offsets are known, so later appends proceed), and recoverAppend re-runs the completion of the same commit —
// never a new physical write — returning the original result.
import { afterEach, describe, expect, it } from "vitest";
import { GenerationZeroVisibleCoordinator } from "../src/completion/generation-zero-visible-coordinator.js";
import { StableHeadCoordinator } from "../src/completion/stable-head-coordinator.js";
import { ErrorCode } from "../src/errors/error-code.js";
import { NereusError } from "../src/errors/nereus-error.js";
import type { CompletionContext, CompletionCoordinator } from "../src/spi/completion.js";
import { AppendProtocolHarness, expectAppendFailure, opaqueBatch } from "../src/testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";

const harnesses: AppendProtocolHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((item) => item.dispose()));
});

/** A REQUIRED_OBJECT_GENERATION stand-in that fails while `failing` is set and records every call. */
class FlakyObjectGenerationCoordinator implements CompletionCoordinator {
  readonly boundary = "REQUIRED_OBJECT_GENERATION" as const;
  failing = true;
  readonly calls: CompletionContext[] = [];

  async complete(context: CompletionContext): Promise<void> {
    this.calls.push(context);
    if (!context.generationZeroCommitted) await context.ensureGenerationZero();
    if (this.failing) throw new NereusError(ErrorCode.TIMEOUT, "object generation not ready");
  }
}

describe("completion boundary", () => {
  it("a failed completion is KNOWN_COMMITTED; later appends proceed; recovery completes the same commit without WAL I/O", async () => {
    const harness = new AppendProtocolHarness(new InMemoryMetadataStore());
    harnesses.push(harness);
    const coordinator = new FlakyObjectGenerationCoordinator();
    const store = harness.open({
      autoRecovery: false,
      completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator(), coordinator],
    });
    const { streamId } = await store.createStream("sync-object", { profile: "BOOKKEEPER_WAL_SYNC_OBJECT" });
    const failure = await expectAppendFailure(store.append(streamId, opaqueBatch("a", "b")), {
      code: ErrorCode.TIMEOUT,
      outcome: "KNOWN_COMMITTED",
      retryable: false,
    });
    expect(await harness.head(streamId)).toMatchObject({ committedEndOffset: 2, commitVersion: 1 });
    expect(coordinator.calls[0]?.generationZeroCommitted).toBe(true);
    expect((await harness.indexEntries(streamId)).map((entry) => entry.offsetEnd)).toEqual([2]);
    await expectAppendFailure(store.append(streamId, opaqueBatch("c")), {
      code: ErrorCode.TIMEOUT,
      outcome: "KNOWN_COMMITTED",
    });
    expect((await harness.head(streamId)).committedEndOffset).toBe(3);
    coordinator.failing = false;
    const persists = harness.bookkeeperWal.stats.persists;
    const recovered = await store.recoverAppend(streamId, failure.attemptId ?? "");
    expect(recovered).toMatchObject({ startOffset: 0, endOffset: 2, commitVersion: 1, generation: 0 });
    expect(coordinator.calls.at(-1)?.result).toMatchObject({
      startOffset: 0,
      endOffset: 2,
      commitId: recovered.commitId,
    });
    expect(harness.bookkeeperWal.stats.persists).toBe(persists);
    expect((await store.append(streamId, opaqueBatch("d"))).startOffset).toBe(3);
  });

  it("GenerationZeroVisibleCoordinator writes nothing when the commit carried the index, and materializes it otherwise", async () => {
    const coordinator = new GenerationZeroVisibleCoordinator();
    let ensured = 0;
    const context = (generationZeroCommitted: boolean): CompletionContext =>
      ({
        generationZeroCommitted,
        ensureGenerationZero: async () => void (ensured += 1),
      }) as unknown as CompletionContext;
    await coordinator.complete(context(true));
    expect(ensured).toBe(0);
    await coordinator.complete(context(false));
    expect(ensured).toBe(1);
  });
});
