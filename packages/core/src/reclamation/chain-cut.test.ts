// The trim offset as the recovery checkpoint: once a collector deleted the records of commits below the trim, walks,
// replay searches and reads stop cleanly at the trim instead of reporting a broken chain; a missing record above
// the trim is still an invariant violation.
import { describe, expect, it } from "vitest";
import { findCommit } from "../commit-chain/find-commit.js";
import { walkCommitChain } from "../commit-chain/walk-commit-chain.js";
import { ErrorCode } from "../errors/error-code.js";
import { AppendProtocolHarness, opaqueBatch, text } from "../testing/append-protocol-harness.js";
import { InMemoryMetadataStore } from "../testing/in-memory-metadata-store.js";
import { expectNereusError } from "../testing/rejections.js";
import { trimmedCommitDeletes } from "./trimmed-commit-deletes.js";

/** Four commits of two records each ([0,2) … [6,8)), trimmed to 4, the records of the first two deleted. */
async function collectedBelowTrim() {
  const harness = new AppendProtocolHarness(new InMemoryMetadataStore());
  const store = harness.open();
  const { streamId } = await store.createStream("cut", { profile: "BOOKKEEPER_WAL_ONLY" });
  const results = [];
  for (let index = 0; index < 4; index++)
    results.push(await store.append(streamId, opaqueBatch(`a${String(index)}`, `b${String(index)}`)));
  await store.trim(streamId, 4);
  const intents = [];
  for (const result of results) {
    const stored = await harness.metadata.get(harness.keyspace.intentKey(streamId, result.commitId));
    intents.push(harness.keyspace.decodeIntent(stored as NonNullable<typeof stored>));
  }
  await harness.metadata.txn({
    compares: [],
    writes: intents.slice(0, 2).flatMap((intent) => trimmedCommitDeletes(harness.keyspace, intent)),
  });
  const search = (commitId: string, expectedStartOffset: number) =>
    findCommit({
      metadata: harness.metadata,
      keyspace: harness.keyspace,
      streamId,
      commitId,
      expectedStartOffset,
      budget: 100,
    });
  return { harness, store, streamId, results, intents, search };
}

describe("the chain below the trim offset", () => {
  it("a walk yields the commits above the trim, then ends with OFFSET_TRIMMED", async () => {
    const { harness, streamId, results } = await collectedBelowTrim();
    const head = await harness.head(streamId);
    const walked: string[] = [];
    const walk = async () => {
      for await (const intent of walkCommitChain(harness.metadata, harness.keyspace, streamId, {
        commitId: head.lastCommitId,
        offsetEnd: head.committedEndOffset,
        commitVersion: head.commitVersion,
        cumulativeSize: head.cumulativeSize,
      }))
        walked.push(intent.commitId);
    };
    const error = await expectNereusError(walk(), ErrorCode.OFFSET_TRIMMED);
    expect(error.details).toMatchObject({ trimOffset: 4 });
    expect(walked).toEqual([results[3]?.commitId, results[2]?.commitId]);
  });

  it("a replay search of a collected commit answers trimmed (committed when its marker outlived its intent)", async () => {
    const { harness, streamId, results, intents, search } = await collectedBelowTrim();
    expect(await search(results[0]?.commitId ?? "", 0)).toEqual({ kind: "trimmed", committed: false, trimOffset: 4 });
    // A marker whose intent was collected first still proves the commit.
    const marker = harness.keyspace.markerKey(streamId, results[1]?.commitId ?? "");
    const intent = intents[1] as (typeof intents)[number];
    await harness.metadata.txn({
      compares: [],
      writes: [
        {
          type: "put",
          key: marker,
          value: harness.keyspace.encodeMarker({
            streamId,
            commitId: intent.commitId,
            offsetStart: intent.offsetStart,
            offsetEnd: intent.offsetEnd,
            commitVersion: intent.commitVersion,
          }),
        },
      ],
    });
    expect(await search(intent.commitId, 2)).toEqual({ kind: "trimmed", committed: true, trimOffset: 4 });
    // Above the trim a commit is still found, and absence is still proven.
    expect(await search(results[2]?.commitId ?? "", 4)).toMatchObject({ kind: "found" });
  });

  it("reads stop at the trim; a repair walk above it still works; a missing intent above it is an invariant", async () => {
    const { harness, store, streamId, intents } = await collectedBelowTrim();
    await expectNereusError(store.read(streamId, 3), ErrorCode.OFFSET_TRIMMED);
    // The index entries above the trim are gone too: the read repairs them from the chain, down to offset 4.
    await harness.metadata.txn({
      compares: [],
      writes: intents
        .slice(2)
        .map((intent) => ({ type: "delete" as const, key: harness.keyspace.indexKey(streamId, intent.offsetEnd, 0) })),
    });
    const fresh = harness.open();
    const read = await fresh.read(streamId, 4);
    expect(read.entries.map((entry) => text(entry.payload))).toEqual(["a2", "b2", "a3", "b3"]);
    await harness.metadata.txn({
      compares: [],
      writes: [
        { type: "delete", key: harness.keyspace.intentKey(streamId, intents[2]?.commitId ?? "") },
        { type: "delete", key: harness.keyspace.indexKey(streamId, intents[2]?.offsetEnd ?? 0, 0) },
      ],
    });
    await expectNereusError(harness.open().read(streamId, 4), ErrorCode.METADATA_INVARIANT_VIOLATION);
  });
});
