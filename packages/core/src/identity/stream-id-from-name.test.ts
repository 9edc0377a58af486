import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import type { NereusError } from "../errors/nereus-error.js";
import { isStreamId, STREAM_NAME_MAX_BYTES, streamIdFromName, streamNameHash } from "./stream-id-from-name.js";

const invalidArgument = expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT }) as NereusError;

describe("streamIdFromName", () => {
  test("golden ids (verified against an independent sha256/base32 implementation)", () => {
    expect(streamIdFromName("orders")).toBe("s-dqlivwya2ieoil4tgfcst4p2tqccp23dem6o3kk2lw2sw4asu4mq");
    expect(streamIdFromName("persistent://public/default/orders-partition-0")).toBe(
      "s-hjvyhoocjqr2mxpav6ebbzkqbns4qsd7vaq5n2laqrswa5iq5rda",
    );
    expect(streamIdFromName("é")).toBe("s-jkmvk7sagpbvhhpc5nsuoiaxzlk7svl7pidclie7dq7w4k5gtrga");
    expect(streamNameHash("orders")).toBe("dqlivwya2ieoil4tgfcst4p2tqccp23dem6o3kk2lw2sw4asu4mq");
  });

  test("names are exact: no trimming or normalization", () => {
    expect(streamIdFromName("orders ")).not.toBe(streamIdFromName("orders"));
    expect(streamIdFromName("e\u0301")).not.toBe(streamIdFromName("é"));
  });

  test("rejects empty, oversized and surrogate-broken names", () => {
    expect(() => streamIdFromName("")).toThrow(invalidArgument);
    expect(() => streamIdFromName("\uD800")).toThrow(invalidArgument);
    expect(streamIdFromName("x".repeat(STREAM_NAME_MAX_BYTES))).toMatch(/^s-/);
    expect(() => streamIdFromName("x".repeat(STREAM_NAME_MAX_BYTES + 1))).toThrow(invalidArgument);
    // 512 two-byte characters fit; one more byte does not.
    expect(streamIdFromName("é".repeat(512))).toMatch(/^s-/);
    expect(() => streamIdFromName(`${"é".repeat(512)}x`)).toThrow(invalidArgument);
  });

  test("property: ids have the documented shape", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1, maxLength: 60 }), (name) => {
        const id = streamIdFromName(name);
        expect(isStreamId(id)).toBe(true);
        expect(id).toHaveLength(54);
      }),
    );
    expect(isStreamId("s-short")).toBe(false);
  });
});
