import { describe, expect, it } from "vitest";
import { hex } from "../../../test/hex.js";
import { encodeWith } from "./pooled-writer.js";

describe("encodeWith", () => {
  it("returns fresh copies and starts every encode on an empty writer", () => {
    const first = encodeWith((writer) => writer.uint32(1));
    const second = encodeWith((writer) => writer.uint32(2));
    expect([first, second]).toEqual([hex("01"), hex("02")]);
    expect(first.buffer).not.toBe(second.buffer);
  });

  it("leaves nothing of a failed encode (even one inside a fork) to the next", () => {
    expect(() =>
      encodeWith((writer) => {
        writer.uint32(7).fork().uint32(8);
        throw new Error("value refused");
      }),
    ).toThrow("value refused");
    expect(encodeWith((writer) => writer.fork().uint32(9).join())).toEqual(hex("0109"));
  });

  it("gives a nested encode its own writer", () => {
    const outer = encodeWith((writer) => {
      writer.uint32(1);
      writer.raw(encodeWith((inner) => inner.uint32(2)));
      writer.uint32(3);
    });
    expect(outer).toEqual(hex("010203"));
  });
});
