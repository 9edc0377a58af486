import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import type { NereusError } from "../errors/nereus-error.js";
import { streamIdFromName } from "../identity/stream-id-from-name.js";
import {
  parseCommitIntentKey,
  parseOffsetIndexKey,
  parseReplayMarkerKey,
  parseStreamHeadKey,
} from "./stream-key-parsers.js";
import { clusterPrefix, commitIntentKey, offsetIndexKey, replayMarkerKey, streamHeadKey } from "./stream-keys.js";

const sid = streamIdFromName("orders");
const decodeError = expect.objectContaining({ code: ErrorCode.DECODE_ERROR }) as NereusError;
const componentText = fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 });

describe("stream key parsers", () => {
  test("recover the components of each key kind", () => {
    const P = clusterPrefix("eu west/1");
    expect(parseStreamHeadKey(streamHeadKey(P, sid))).toEqual({ cluster: "eu west/1", streamId: sid });
    expect(parseCommitIntentKey(commitIntentKey(P, sid, "c/1"))).toEqual({
      cluster: "eu west/1",
      streamId: sid,
      commitId: "c/1",
    });
    expect(parseReplayMarkerKey(replayMarkerKey(P, sid, "c1"))).toEqual({
      cluster: "eu west/1",
      streamId: sid,
      commitId: "c1",
    });
    expect(parseOffsetIndexKey(offsetIndexKey(P, sid, 105, 2))).toEqual({
      cluster: "eu west/1",
      streamId: sid,
      offsetEnd: 105,
      generation: 2,
    });
  });

  test("reject keys of another kind or malformed keys", () => {
    const P = clusterPrefix("c");
    const bad: Array<readonly [(key: string) => unknown, string]> = [
      [parseStreamHeadKey, commitIntentKey(P, sid, "x")],
      [parseStreamHeadKey, `${streamHeadKey(P, sid)}/`],
      [parseStreamHeadKey, streamHeadKey(P, sid).replace("/nereus/", "/other/")],
      [parseStreamHeadKey, `/nereus/clusters/c/streams/a%2Fb/head`],
      [parseStreamHeadKey, `/nereus/clusters/b32-mfrgg/streams/${sid}/head`],
      [parseCommitIntentKey, replayMarkerKey(P, sid, "x")],
      [parseCommitIntentKey, `/nereus/clusters/c/streams/${sid}/commit-log/`],
      [parseReplayMarkerKey, commitIntentKey(P, sid, "x")],
      [parseOffsetIndexKey, `/nereus/clusters/c/streams/${sid}/offset-index/105/0000000000000000000`],
      [parseOffsetIndexKey, `/nereus/clusters/c/streams/${sid}/offset-index/0000000000000000105`],
      [parseOffsetIndexKey, streamHeadKey(P, sid)],
    ];
    for (const [parse, key] of bad) expect(() => parse(key), key).toThrow(decodeError);
  });

  test("property: parse(build(x)) = x", () => {
    fc.assert(
      fc.property(
        componentText,
        componentText,
        componentText,
        fc.maxSafeNat(),
        fc.maxSafeNat(),
        (cluster, streamId, commitId, end, gen) => {
          const P = clusterPrefix(cluster);
          expect(parseStreamHeadKey(streamHeadKey(P, streamId))).toEqual({ cluster, streamId });
          expect(parseCommitIntentKey(commitIntentKey(P, streamId, commitId))).toEqual({ cluster, streamId, commitId });
          expect(parseReplayMarkerKey(replayMarkerKey(P, streamId, commitId))).toEqual({ cluster, streamId, commitId });
          expect(parseOffsetIndexKey(offsetIndexKey(P, streamId, end, gen))).toEqual({
            cluster,
            streamId,
            offsetEnd: end,
            generation: gen,
          });
        },
      ),
    );
  });
});
