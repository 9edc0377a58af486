import { ErrorCode, NereusError, streamIdFromName } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import {
  MAX_CURSOR_NAME_BYTES,
  checkCursorName,
  cursorNameHash,
  cursorOwnerKey,
  cursorRetentionKey,
  cursorRootKey,
  cursorRootsPrefix,
  cursorStreamPrefix,
  parseCursorOwnerKey,
  parseCursorRetentionKey,
  parseCursorRootKey,
  parseSnapshotObjectKey,
  snapshotObjectKey,
} from "./cursor-keys.js";

const STREAM = streamIdFromName("orders");
const HASH = "5b2ab34819ee0d3c7a290ed1f275a655";
const SNAPSHOT_ID = "0123456789abcdef0123456789abcdef";

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return NereusError.is(error) ? error.code : "not a NereusError";
  }
  return undefined;
}

describe("cursor name hash", () => {
  test("is the first 128 bits of SHA-256 over the domain-separated UTF-8 name", () => {
    // Computed independently (Python hashlib) and frozen.
    expect(cursorNameHash("orders-sub")).toBe(HASH);
    expect(cursorNameHash("é/ü sub")).toBe("1dc67c3ed4422fc5a7511a0588de5f44");
    expect(cursorNameHash("x")).toBe("00973ddcc2136febead3d93a19543b4f");
  });

  test("names are non-empty well-formed strings of at most 1 KiB of UTF-8", () => {
    expect(codeOf(() => cursorNameHash(""))).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(codeOf(() => cursorNameHash("a\uD800b"))).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(codeOf(() => checkCursorName(42))).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(codeOf(() => cursorNameHash("a".repeat(MAX_CURSOR_NAME_BYTES)))).toBeUndefined();
    expect(codeOf(() => cursorNameHash("a".repeat(MAX_CURSOR_NAME_BYTES + 1)))).toBe(ErrorCode.INVALID_ARGUMENT);
    // 342 three-byte characters are 1,026 bytes though only 342 UTF-16 units.
    expect(codeOf(() => cursorNameHash("€".repeat(342)))).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(codeOf(() => cursorNameHash("€".repeat(341)))).toBeUndefined();
  });
});

describe("metadata keys", () => {
  test("layout under the cluster prefix", () => {
    expect(cursorStreamPrefix("c1", STREAM)).toBe(`/nereus/clusters/c1/cursors/${STREAM}/`);
    expect(cursorOwnerKey("c1", STREAM)).toBe(`/nereus/clusters/c1/cursors/${STREAM}/owner`);
    expect(cursorRetentionKey("c1", STREAM)).toBe(`/nereus/clusters/c1/cursors/${STREAM}/retention`);
    expect(cursorRootsPrefix("c1", STREAM)).toBe(`/nereus/clusters/c1/cursors/${STREAM}/roots/`);
    expect(cursorRootKey("c1", STREAM, HASH)).toBe(`/nereus/clusters/c1/cursors/${STREAM}/roots/${HASH}`);
    expect(cursorRootKey("c 1", "a/b", HASH)).toMatch(
      /^\/nereus\/clusters\/b32-[a-z2-7]+\/cursors\/b32-[a-z2-7]+\/roots\/[0-9a-f]{32}$/,
    );
  });

  test("builders refuse bad components before any I/O", () => {
    expect(codeOf(() => cursorOwnerKey("", STREAM))).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(codeOf(() => cursorOwnerKey("c1", ""))).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(codeOf(() => cursorRootKey("c1", STREAM, "ABC"))).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(codeOf(() => cursorRootKey("c1", STREAM, HASH.toUpperCase()))).toBe(ErrorCode.INVALID_ARGUMENT);
  });

  test("parsers invert the builders for any cluster and stream", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 30, unit: "grapheme" }),
        fc.string({ minLength: 1, maxLength: 30, unit: "grapheme" }),
        fc.string({ minLength: 1, maxLength: 30, unit: "grapheme" }),
        (cluster, streamId, name) => {
          const nameHash = cursorNameHash(name);
          expect(parseCursorOwnerKey(cursorOwnerKey(cluster, streamId))).toEqual({ cluster, streamId });
          expect(parseCursorRetentionKey(cursorRetentionKey(cluster, streamId))).toEqual({ cluster, streamId });
          expect(parseCursorRootKey(cursorRootKey(cluster, streamId, nameHash))).toEqual({
            cluster,
            streamId,
            cursorNameHash: nameHash,
          });
        },
      ),
    );
  });

  test("parsers reject every key the builders could not have produced", () => {
    const root = cursorRootKey("c1", STREAM, HASH);
    for (const key of [
      "",
      cursorOwnerKey("c1", STREAM) + "/",
      cursorRetentionKey("c1", STREAM).replace("retention", "Retention"),
      root.replace("/cursors/", "/streams/"),
      root.replace("/nereus/", "/other/"),
      root.replace(HASH, HASH.slice(1)),
      root.replace(HASH, HASH.toUpperCase()),
      root.replace("/c1/", "/b32-mmya/"), // "c1" wrapped in b32: not canonical
      root.replace(`/${STREAM}/`, "//"),
      root.slice(1),
    ]) {
      expect(
        codeOf(() => parseCursorRootKey(key)),
        key,
      ).toBe(ErrorCode.DECODE_ERROR);
    }
    expect(codeOf(() => parseCursorOwnerKey(cursorRetentionKey("c1", STREAM)))).toBe(ErrorCode.DECODE_ERROR);
    expect(codeOf(() => parseCursorRetentionKey(cursorOwnerKey("c1", STREAM)))).toBe(ErrorCode.DECODE_ERROR);
    expect(codeOf(() => parseCursorOwnerKey(root))).toBe(ErrorCode.DECODE_ERROR);
  });
});

describe("snapshot object keys", () => {
  test("layout", () => {
    expect(snapshotObjectKey("c1", STREAM, HASH, 3, SNAPSHOT_ID)).toBe(
      `cursor-snapshots/v1/c1/${STREAM}/${HASH}/0000000000000000003/${SNAPSHOT_ID}.ncs`,
    );
  });

  test("round trip and strict parsing", () => {
    const key = snapshotObjectKey("c 1", STREAM, HASH, 2 ** 40, SNAPSHOT_ID);
    expect(parseSnapshotObjectKey(key)).toEqual({
      cluster: "c 1",
      streamId: STREAM,
      cursorNameHash: HASH,
      cursorGeneration: 2 ** 40,
      snapshotId: SNAPSHOT_ID,
    });
    const plain = snapshotObjectKey("c1", STREAM, HASH, 3, SNAPSHOT_ID);
    for (const bad of [
      plain.replace(".ncs", ".bin"),
      plain.replace("/v1/", "/v2/"),
      plain.replace("0000000000000000003", "3"),
      plain.replace("0000000000000000003", "0000000000000000000"),
      plain.replace(SNAPSHOT_ID, SNAPSHOT_ID.slice(2)),
      plain.replace(HASH, "x".repeat(32)),
      `/${plain}`,
      `${plain}/x`,
    ]) {
      expect(
        codeOf(() => parseSnapshotObjectKey(bad)),
        bad,
      ).toBe(ErrorCode.DECODE_ERROR);
    }
  });

  test("builder refuses a bad generation, hash or id", () => {
    expect(codeOf(() => snapshotObjectKey("c1", STREAM, HASH, 0, SNAPSHOT_ID))).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(codeOf(() => snapshotObjectKey("c1", STREAM, HASH, 1.5, SNAPSHOT_ID))).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(codeOf(() => snapshotObjectKey("c1", STREAM, "nope", 1, SNAPSHOT_ID))).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(codeOf(() => snapshotObjectKey("c1", STREAM, HASH, 1, "nope"))).toBe(ErrorCode.INVALID_ARGUMENT);
  });
});
