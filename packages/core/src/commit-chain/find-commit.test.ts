import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { AppendProtocolHarness, opaqueBatch } from "../testing/append-protocol-harness.js";
import { expectNereusError } from "../testing/rejections.js";
import { InMemoryMetadataStore } from "../testing/in-memory-metadata-store.js";
import { findCommit } from "./find-commit.js";
import { walkCommitChain } from "./walk-commit-chain.js";

async function chainOf(length: number) {
  const harness = new AppendProtocolHarness(new InMemoryMetadataStore());
  const store = harness.open();
  const { streamId } = await store.createStream("chain", { profile: "BOOKKEEPER_WAL_ONLY" });
  const results = [];
  for (let index = 0; index < length; index++)
    results.push(await store.append(streamId, opaqueBatch(`e${String(index)}`, "x")));
  await store.close();
  const search = (commitId: string, expectedStartOffset: number, budget = 100) =>
    findCommit({
      metadata: harness.metadata,
      keyspace: harness.keyspace,
      streamId,
      commitId,
      expectedStartOffset,
      budget,
    });
  return { harness, streamId, results, search };
}

describe("findCommit", () => {
  it("finds a commit by its replay marker, or by walking the chain when the marker is gone", async () => {
    const { harness, streamId, results, search } = await chainOf(4);
    const target = results[1];
    expect(await search(target?.commitId ?? "", 2)).toMatchObject({
      kind: "found",
      intent: { commitId: target?.commitId, offsetStart: 2 },
    });
    await harness.metadata.txn({
      compares: [],
      writes: [{ type: "delete", key: harness.keyspace.markerKey(streamId, target?.commitId ?? "") }],
    });
    expect(await search(target?.commitId ?? "", 2)).toMatchObject({ kind: "found", intent: { offsetStart: 2 } });
  });

  it("proves absence when the head ends at the expected start, or another commit starts there", async () => {
    const { search } = await chainOf(3);
    expect((await search("never", 6)).kind).toBe("absent");
    expect((await search("never", 2)).kind).toBe("absent");
  });

  it("reports unknown (not absence) when the walk budget runs out, and an invariant when the head is behind", async () => {
    const { search } = await chainOf(5);
    expect(await search("never", 0, 2)).toMatchObject({ kind: "unknown" });
    await expectNereusError(search("never", 11), ErrorCode.METADATA_INVARIANT_VIOLATION);
  });
});

describe("walkCommitChain", () => {
  it("yields every commit newest first down to offset 0", async () => {
    const { harness, streamId, results } = await chainOf(3);
    const head = await harness.head(streamId);
    const walked = [];
    for await (const intent of walkCommitChain(harness.metadata, harness.keyspace, streamId, {
      commitId: head.lastCommitId,
      offsetEnd: 6,
      commitVersion: 3,
      cumulativeSize: head.cumulativeSize,
    }))
      walked.push(intent.commitId);
    expect(walked).toEqual(results.map((result) => result.commitId).reverse());
  });

  it("reports a missing intent or a link that does not continue the chain as METADATA_INVARIANT_VIOLATION", async () => {
    const { harness, streamId, results } = await chainOf(3);
    const head = await harness.head(streamId);
    const drain = async (anchor: Parameters<typeof walkCommitChain>[3]) => {
      for await (const _intent of walkCommitChain(harness.metadata, harness.keyspace, streamId, anchor)) {
        // walk to the end
      }
    };
    await expectNereusError(
      drain({ commitId: head.lastCommitId, offsetEnd: 7, commitVersion: 3, cumulativeSize: head.cumulativeSize }),
      ErrorCode.METADATA_INVARIANT_VIOLATION,
    );
    await harness.metadata.txn({
      compares: [],
      writes: [{ type: "delete", key: harness.keyspace.intentKey(streamId, results[0]?.commitId ?? "") }],
    });
    await expectNereusError(
      drain({ commitId: head.lastCommitId, offsetEnd: 6, commitVersion: 3, cumulativeSize: head.cumulativeSize }),
      ErrorCode.METADATA_INVARIANT_VIOLATION,
    );
  });
});
