import { mkdtemp, rm, truncate } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  ErrorCode,
  NereusError,
  type ObjectInfo,
  type ObjectIoOptions,
  type ObjectStore,
  type StoredEntry,
} from "@nereus/core";
import { InMemoryObjectStore } from "@nereus/core/testing";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { fileSystemKeyPath } from "../file-system/file-system-key-path.js";
import { createFileSystemObjectStore } from "../file-system/file-system-object-store.js";
import {
  encodeGenerationObject,
  encodeGenerationObjectYielding,
  uploadGenerationObject,
  verifyUploadedGenerationObject,
  type EncodedGenerationObject,
} from "./generation-object.js";

const encoder = new TextEncoder();

function entries(...payloads: string[]): StoredEntry[] {
  return payloads.map((payload, index) => ({ payload: encoder.encode(payload), recordCount: index + 1 }));
}

function encode(stored: readonly StoredEntry[], claimToken = "token-1"): EncodedGenerationObject {
  const records = stored.reduce((sum, entry) => sum + entry.recordCount, 0);
  return encodeGenerationObject({
    cluster: "c",
    streamId: "stream-1",
    offsetStart: 10,
    offsetEnd: 10 + records,
    entries: stored,
    workerId: "worker",
    processRunId: "run",
    claimToken,
    createdAtMillis: 1_000,
    orphanGraceMs: 60_000,
  });
}

/** Delegates to an in-memory store, changing what is stored and what HEAD reports. */
class AlteringObjectStore implements ObjectStore {
  readonly spiVersion = 1 as const;
  readonly inner = new InMemoryObjectStore();
  gets = 0;

  constructor(
    private readonly alter: (body: Uint8Array) => Uint8Array,
    private readonly reportsCrc: boolean,
  ) {}

  putIfAbsent(key: string, body: Uint8Array, options?: ObjectIoOptions): Promise<{ readonly created: boolean }> {
    return this.inner.putIfAbsent(key, this.alter(body), options);
  }

  get(
    key: string,
    range?: { readonly offset: number; readonly length: number },
    options?: ObjectIoOptions,
  ): Promise<Uint8Array> {
    this.gets += 1;
    return this.inner.get(key, range, options);
  }

  async head(key: string, options?: ObjectIoOptions): Promise<ObjectInfo | undefined> {
    const info = await this.inner.head(key, options);
    return info === undefined || this.reportsCrc ? info : { key: info.key, size: info.size };
  }

  list: ObjectStore["list"] = (prefix, options) => this.inner.list(prefix, options);
  deleteMany: ObjectStore["deleteMany"] = (keys, options) => this.inner.deleteMany(keys, options);
  close = (): Promise<void> => this.inner.close();
}

const flipMiddleBit = (body: Uint8Array): Uint8Array => {
  const copy = body.slice();
  const at = Math.floor(copy.length / 2);
  copy[at] = (copy[at] ?? 0) ^ 1;
  return copy;
};

const verificationFailure = (code: string = ErrorCode.OBJECT_CHECKSUM_MISMATCH) => ({ code, retryable: false });

async function upload(store: ObjectStore, encoded: EncodedGenerationObject): Promise<void> {
  await uploadGenerationObject(store, encoded, new AbortController().signal);
}

describe("encodeGenerationObject", () => {
  it("names the object by the SHA-256 of the concatenated payloads (the same whatever the entry split), plus the claim token", () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 64 }), { minLength: 1, maxLength: 8 }),
        (payloads) => {
          const whole = Buffer.concat(payloads);
          const split = encode(payloads.map((payload) => ({ payload, recordCount: 1 })));
          const single = encodeGenerationObject({
            cluster: "c",
            streamId: "stream-1",
            offsetStart: 10,
            offsetEnd: 11,
            entries: [{ payload: whole, recordCount: 1 }],
            workerId: "worker",
            processRunId: "run",
            claimToken: "token-1",
            createdAtMillis: 1_000,
            orphanGraceMs: 60_000,
          });
          const sha = split.objectKey.split("/").at(-1)?.split("-")[0];
          expect(sha).toBe(single.objectKey.split("/").at(-1)?.split("-")[0]);
          expect(sha).toMatch(/^[0-9a-f]{64}$/);
          expect(split.logicalBytes).toBe(whole.length);
        },
      ),
    );
    expect(encode(entries("a")).objectKey).not.toBe(encode(entries("a"), "token-2").objectKey);
  });

  it("yielding between hash steps: the same bytes, key and root as the synchronous encoder", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc
              .uint8Array({ minLength: 0, maxLength: 300 })
              .chain((small) => fc.constantFrom(small, new Uint8Array(1024 * 1024 + small.length).fill(small[0] ?? 1))),
            fc.integer({ min: 1, max: 5 }),
          ),
          { minLength: 1, maxLength: 10 },
        ),
        async (parts) => {
          const stored = parts.map(([payload, recordCount]) => ({ payload, recordCount }));
          const sync = encode(stored);
          const records = stored.reduce((sum, entry) => sum + entry.recordCount, 0);
          const offLoop = await encodeGenerationObjectYielding({
            cluster: "c",
            streamId: "stream-1",
            offsetStart: 10,
            offsetEnd: 10 + records,
            entries: stored,
            workerId: "worker",
            processRunId: "run",
            claimToken: "token-1",
            createdAtMillis: 1_000,
            orphanGraceMs: 60_000,
          });
          expect(offLoop.objectKey).toBe(sync.objectKey);
          expect(Buffer.from(offLoop.bytes).equals(Buffer.from(sync.bytes))).toBe(true);
          expect(offLoop.root).toEqual(sync.root);
          expect(offLoop.target).toEqual(sync.target);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe("verifyUploadedGenerationObject", () => {
  const roots: string[] = [];
  afterEach(async () => {
    for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
  });

  it("accepts a correct object by the store's size + CRC32C, without downloading it", async () => {
    const store = new AlteringObjectStore((body) => body, true);
    const stored = entries("alpha", "beta", "gamma");
    const encoded = encode(stored);
    await upload(store, encoded);
    await expect(verifyUploadedGenerationObject(store, encoded, "stream-1", 10, stored)).resolves.toBe(
      "STORE_CHECKSUM",
    );
    expect(store.gets).toBe(0);
  });

  it("rejects an object the store holds with other bytes (its CRC32C differs), whether or not it reports a CRC32C", async () => {
    const stored = entries("alpha", "beta");
    for (const reportsCrc of [true, false]) {
      const store = new AlteringObjectStore(flipMiddleBit, reportsCrc);
      const encoded = encode(stored);
      await upload(store, encoded);
      await expect(verifyUploadedGenerationObject(store, encoded, "stream-1", 10, stored)).rejects.toMatchObject(
        verificationFailure(),
      );
    }
  });

  it("rejects a truncated object by its size", async () => {
    const stored = entries("alpha", "beta");
    for (const reportsCrc of [true, false]) {
      const store = new AlteringObjectStore((body) => body.subarray(0, body.length - 1), reportsCrc);
      const encoded = encode(stored);
      await upload(store, encoded);
      await expect(verifyUploadedGenerationObject(store, encoded, "stream-1", 10, stored)).rejects.toThrow(/byte\(s\)/);
    }
  });

  it("without a store CRC32C, reads the object back whole and accepts it when identical", async () => {
    const store = new AlteringObjectStore((body) => body, false);
    const stored = entries("alpha", "beta");
    const encoded = encode(stored);
    await upload(store, encoded);
    await expect(verifyUploadedGenerationObject(store, encoded, "stream-1", 10, stored)).resolves.toBe("READ_BACK");
    expect(store.gets).toBe(1);
  });

  it("rejects encoded bytes that do not hold exactly the sources before any I/O (other bytes, counts, entries, range)", async () => {
    const store = new AlteringObjectStore((body) => body, true);
    const stored = entries("alpha", "beta");
    const encoded = encode(stored);
    await upload(store, encoded);
    const cases: Array<[readonly StoredEntry[], string, number]> = [
      [entries("alpha", "betA"), "stream-1", 10],
      [[stored[0] as StoredEntry, { payload: encoder.encode("beta"), recordCount: 3 }], "stream-1", 10],
      [entries("alpha"), "stream-1", 10],
      [stored, "stream-2", 10],
      [stored, "stream-1", 11],
    ];
    for (const [expected, streamId, offsetStart] of cases) {
      await expect(
        verifyUploadedGenerationObject(store, encoded, streamId, offsetStart, expected),
      ).rejects.toMatchObject(verificationFailure());
    }
    expect(store.gets).toBe(0);
  });

  it("reports a missing object as OBJECT_NOT_FOUND", async () => {
    const store = new AlteringObjectStore((body) => body, true);
    const stored = entries("alpha");
    await expect(verifyUploadedGenerationObject(store, encode(stored), "stream-1", 10, stored)).rejects.toSatisfy(
      (error: unknown) => NereusError.hasCode(error, ErrorCode.OBJECT_NOT_FOUND),
    );
  });

  it("on the filesystem store: proven by its recorded CRC32C; a truncated file is rejected", async () => {
    const root = await mkdtemp(path.join(tmpdir(), "nereus-generation-object-"));
    roots.push(root);
    const store = createFileSystemObjectStore({ root });
    try {
      const stored = entries("alpha", "beta", "gamma");
      const encoded = encode(stored);
      await upload(store, encoded);
      await expect(verifyUploadedGenerationObject(store, encoded, "stream-1", 10, stored)).resolves.toBe(
        "STORE_CHECKSUM",
      );
      await truncate(
        path.join(root, "objects", fileSystemKeyPath.objectPath(encoded.objectKey)),
        8 + encoded.bytes.length - 3,
      );
      await expect(verifyUploadedGenerationObject(store, encoded, "stream-1", 10, stored)).rejects.toMatchObject(
        verificationFailure(),
      );
    } finally {
      await store.close();
    }
  });
});
