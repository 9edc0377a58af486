import { ErrorCode, NereusError, crc32c } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { crc32cFromBase64, crc32cToBase64 } from "./crc32c-base64.js";

describe("crc32cToBase64 / crc32cFromBase64", () => {
  it("writes the big-endian form S3 uses", () => {
    // CRC32C("123456789") = 0xe3069283; s3proxy and AWS return "4waSgw==" for it.
    expect(crc32cToBase64(crc32c(new TextEncoder().encode("123456789")))).toBe("4waSgw==");
    expect(crc32cToBase64(0)).toBe("AAAAAA==");
  });

  it("round-trips every u32", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffff_ffff }),
        (value) => crc32cFromBase64(crc32cToBase64(value)) === value,
      ),
    );
  });

  it("rejects anything but canonical base64 of 4 bytes", () => {
    for (const text of ["", "AAAA", "AAAAAAA=", "4waSgw", "4waSgw==\n", "4waSgx=="]) {
      let thrown: unknown;
      try {
        crc32cFromBase64(text);
      } catch (error) {
        thrown = error;
      }
      expect(NereusError.hasCode(thrown, ErrorCode.DECODE_ERROR)).toBe(true);
    }
  });
});
