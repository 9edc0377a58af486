import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import type { NereusError } from "../errors/nereus-error.js";
import { streamIdFromName } from "../identity/stream-id-from-name.js";
import {
  clusterPrefix,
  commitIntentKey,
  offsetIndexKey,
  offsetIndexPrefix,
  offsetIndexScanStartKey,
  replayMarkerKey,
  streamHeadKey,
  streamPrefix,
  streamsPrefix,
} from "./stream-keys.js";

const P = clusterPrefix("prod-1");
const sid = streamIdFromName("orders");

describe("stream keys", () => {
  test("golden layout", () => {
    expect(P).toBe("/nereus/clusters/prod-1");
    expect(clusterPrefix("eu west/1")).toBe("/nereus/clusters/b32-mv2sa53fon2c6mi");
    expect(streamsPrefix(P)).toBe("/nereus/clusters/prod-1/streams/");
    expect(streamPrefix(P, sid)).toBe(`/nereus/clusters/prod-1/streams/${sid}/`);
    expect(streamHeadKey(P, sid)).toBe(`/nereus/clusters/prod-1/streams/${sid}/head`);
    expect(commitIntentKey(P, sid, "abc")).toBe(`/nereus/clusters/prod-1/streams/${sid}/commit-log/abc`);
    expect(replayMarkerKey(P, sid, "abc")).toBe(`/nereus/clusters/prod-1/streams/${sid}/committed-appends/abc`);
    expect(offsetIndexPrefix(P, sid)).toBe(`/nereus/clusters/prod-1/streams/${sid}/offset-index/`);
    expect(offsetIndexKey(P, sid, 105, 0)).toBe(
      `/nereus/clusters/prod-1/streams/${sid}/offset-index/0000000000000000105/0000000000000000000`,
    );
    expect(offsetIndexScanStartKey(P, sid, 101)).toBe(
      `/nereus/clusters/prod-1/streams/${sid}/offset-index/0000000000000000101`,
    );
  });

  test("dynamic components go through the key-component codec", () => {
    expect(streamHeadKey(P, "a/b")).toBe("/nereus/clusters/prod-1/streams/b32-mexwe/head");
    expect(commitIntentKey(P, sid, "..")).toBe(`/nereus/clusters/prod-1/streams/${sid}/commit-log/b32-fyxa`);
  });

  test("rejects a prefix not built by clusterPrefix, and invalid numbers", () => {
    const invalid = expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT }) as NereusError;
    for (const bad of ["/nereus/clusters/", "/nereus/clusters/a/", "nereus/clusters/a", "/nereus/clusters/a b"]) {
      expect(() => streamHeadKey(bad, sid), bad).toThrow(invalid);
    }
    expect(() => offsetIndexKey(P, sid, -1, 0)).toThrow(invalid);
    expect(() => offsetIndexKey(P, sid, 1, 1.5)).toThrow(invalid);
  });

  test("property: offset-index key order is (offsetEnd, generation) order", () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.nat(), fc.maxSafeNat(), fc.nat(), (endA, genA, endB, genB) => {
        const a = offsetIndexKey(P, sid, endA, genA);
        const b = offsetIndexKey(P, sid, endB, genB);
        const numeric = endA !== endB ? endA < endB : genA < genB;
        expect(a < b).toBe(numeric);
        expect(a.startsWith(offsetIndexPrefix(P, sid))).toBe(true);
        expect(a >= offsetIndexScanStartKey(P, sid, endA)).toBe(true);
        if (endA > 0) expect(a >= offsetIndexScanStartKey(P, sid, endA - 1)).toBe(true);
        if (endA < Number.MAX_SAFE_INTEGER) expect(a < offsetIndexScanStartKey(P, sid, endA + 1)).toBe(true);
      }),
    );
  });
});
