import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { isPhysicalHash, physicalShard, protectionTypeSlot } from "./physical-key-components.js";

const HASH = "ff".padEnd(64, "0");

describe("physical key components", () => {
  it("shards a hash by its first byte as three digits", () => {
    expect(physicalShard(HASH, "object key hash")).toBe("255");
    expect(physicalShard("0a".padEnd(64, "1"), "ledger hash")).toBe("010");
    expect(isPhysicalHash(HASH)).toBe(true);
  });

  it("rejects a hash that is not 64 lowercase hex digits, naming it", () => {
    let caught: unknown;
    try {
      physicalShard(HASH.toUpperCase(), "ledger hash");
    } catch (error) {
      caught = error;
    }
    expect(NereusError.hasCode(caught, ErrorCode.INVALID_ARGUMENT)).toBe(true);
    expect(String(caught)).toContain("ledger hash");
    expect(isPhysicalHash("abc")).toBe(false);
  });

  it("writes protection type slots as two digits and rejects ids outside 1..99", () => {
    expect(protectionTypeSlot(1)).toBe("01");
    expect(protectionTypeSlot(99)).toBe("99");
    expect(() => protectionTypeSlot(0)).toThrow(/outside 1..99/);
    expect(() => protectionTypeSlot(100)).toThrow(/outside 1..99/);
    expect(() => protectionTypeSlot(1.5)).toThrow(/outside 1..99/);
  });
});
