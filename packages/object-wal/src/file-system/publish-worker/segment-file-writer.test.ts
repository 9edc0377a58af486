import fs from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { SharedDurabilityGates, SharedLatencyHistogram } from "@nereus/core";
import { afterEach, describe, expect, it } from "vitest";
import { FOLLOWER_REFUSED_CODE } from "./publish-jobs.js";
import { SegmentFileWriter } from "./segment-file-writer.js";
import { SharedBodies } from "./shared-bodies.js";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("SegmentFileWriter (on this thread)", () => {
  let directory = "";
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it("writes heads and bodies in order (shared bodies included), skips taken keys and opens the gate", async () => {
    directory = await mkdtemp(path.join(tmpdir(), "nereus-segment-writer-"));
    const file = path.join(directory, "0001.seg");
    const taken = path.join(directory, "taken");
    fs.writeFileSync(taken, "");
    const shared = new SharedArrayBuffer(8);
    new Uint8Array(shared).set(bytes("XYZW"));
    const writer = new SegmentFileWriter(new SharedBodies(), {
      write: SharedLatencyHistogram.create(),
      sync: SharedLatencyHistogram.create(),
    });
    const gates = new SharedDurabilityGates();
    const outcome = writer.run({
      path: file,
      create: true,
      position: 0,
      records: [
        { head: bytes("a"), body: bytes("bc") },
        { head: bytes("-"), unlessFile: taken },
        { head: bytes("d"), memory: { id: 1, buffer: shared, start: 1, length: 2 } },
      ],
      sync: true,
      syncDirectory: true,
      close: true,
      gate: { words: gates.words, sequence: 1 },
    });
    expect(outcome).toEqual({ kind: "written", skipped: [1] });
    expect(fs.readFileSync(file, "utf8")).toBe("abcdYZ");
    expect(new BigInt64Array(gates.words)[0]).toBe(1n);
  });

  it("fails the gate of a failed job and refuses the job that follows it", async () => {
    directory = await mkdtemp(path.join(tmpdir(), "nereus-segment-writer-"));
    const writer = new SegmentFileWriter(new SharedBodies(), {
      write: SharedLatencyHistogram.create(),
      sync: SharedLatencyHistogram.create(),
    });
    const gates = new SharedDurabilityGates();
    const job = {
      path: path.join(directory, "missing", "0001.seg"),
      create: true,
      position: 0,
      records: [],
      sync: false,
      syncDirectory: false,
      close: false,
    };
    const failed = writer.run({ ...job, gate: { words: gates.words, sequence: 1 } });
    expect(failed.kind === "failed" && failed.error.code).toBe("ENOENT");
    expect(new BigInt64Array(gates.words)[1]).toBe(1n);
    const refused = writer.run({ ...job, path: path.join(directory, "0002.seg"), follows: true });
    expect(refused.kind === "failed" && refused.error.code).toBe(FOLLOWER_REFUSED_CODE);
    expect(fs.existsSync(path.join(directory, "0002.seg"))).toBe(false);
  });
});
