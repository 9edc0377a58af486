import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { SharedDurabilityGates, SharedLatencyHistogram } from "@nereus/core";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteMetadataStore } from "../sqlite-metadata-store.js";
import {
  WRITER_COUNTER_WORDS,
  WriterCounter,
  type SubmittedOperation,
  type WriterThreadData,
} from "./sqlite-writer-protocol.js";
import { WriterRounds } from "./writer-rounds.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const put = (id: number, key: string, modRevision?: number): SubmittedOperation => ({
  kind: "txns",
  id,
  now: 1,
  txns: [
    {
      compares: modRevision === undefined ? [] : [{ key, modRevision }],
      writes: [{ type: "put", key, value: bytes(key) }],
      readOnFailure: [key],
    },
  ],
});

describe("WriterRounds (on this thread)", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function rounds(sync: boolean): Promise<{ rounds: WriterRounds; counters: Int32Array }> {
    const directory = await mkdtemp(path.join(tmpdir(), "nereus-writer-rounds-"));
    cleanups.push(() => rm(directory, { recursive: true, force: true }));
    const file = path.join(directory, "metadata.db");
    await (await createSqliteMetadataStore({ path: file })).close();
    const counters = new Int32Array(new SharedArrayBuffer(WRITER_COUNTER_WORDS * 4));
    const histogram = (): SharedLatencyHistogram["handle"] => SharedLatencyHistogram.create().handle;
    const data: WriterThreadData = {
      path: file,
      sync,
      gateTimeoutMs: 1000,
      seam: false,
      counters: counters.buffer as SharedArrayBuffer,
      timings: { round: histogram(), gateWait: histogram(), walSync: histogram() },
    };
    const writer = new WriterRounds(new Database(file), data, () => undefined);
    cleanups.push(async () => writer.close());
    return { rounds: writer, counters };
  }

  it("commits a round's txns at consecutive revisions with their events, and reads back the keys of a failed compare", async () => {
    const { rounds: writer, counters } = await rounds(true);
    const first = writer.run([put(1, "k/a"), put(2, "k/b")]);
    expect(first.ids).toEqual([1, 2]);
    expect(first.bodyDone).toBe(true);
    expect(first.events?.map((event) => `${event.key}@${String(event.modRevision)}`)).toEqual(["k/a@1", "k/b@2"]);
    const failed = writer.run([put(3, "k/a", 99)]);
    const [outcome] = failed.outcomes?.[0]?.value as Array<{
      value: { succeeded: boolean; current: Array<{ key: string; mod_revision: number }> };
    }>;
    expect(outcome?.value.succeeded).toBe(false);
    expect(outcome?.value.current.map((row) => [row.key, row.mod_revision])).toEqual([["k/a", 1]]);
    expect(Atomics.load(counters, WriterCounter.txns)).toBe(3);
    expect(Atomics.load(counters, WriterCounter.walSyncs)).toBe(2);
  });

  it("refuses a txn whose gate failed and applies the rest of its round; a keep-alive of an unknown lease is refused", async () => {
    const { rounds: writer } = await rounds(false);
    const gates = new SharedDurabilityGates();
    gates.fail();
    const gated: SubmittedOperation = {
      kind: "txns",
      id: 1,
      now: 1,
      txns: [
        {
          compares: [],
          writes: [{ type: "put", key: "g/x", value: bytes("x") }],
          gate: { words: gates.words, sequence: 1 },
        },
      ],
    };
    const reply = writer.run([gated, put(2, "g/y"), { kind: "keepAlive", id: 3, now: 1, leaseId: "404" }]);
    expect((reply.outcomes?.[0]?.value as Array<{ error?: { kind: string } }>)[0]?.error?.kind).toBe("gate");
    expect(reply.events?.map((event) => event.key)).toEqual(["g/y"]);
    expect(reply.outcomes?.[2]?.error).toEqual({ kind: "lease-not-found", leaseId: "404" });
  });
});
