import { ErrorCode } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { parseLedgerLayout } from "./ledger-layout.js";
import { ledgerPath } from "./ledger-path.js";

describe("ledgerPath", () => {
  it("splits short ids 2-4-4 under the hierarchical layout", () => {
    expect(ledgerPath("/ledgers", 1n, "hierarchical")).toBe("/ledgers/00/0000/L0001");
    expect(ledgerPath("/ledgers/", 1234567890n, "hierarchical")).toBe("/ledgers/12/3456/L7890");
    expect(ledgerPath("/ledgers", 2147483646n, "hierarchical")).toBe("/ledgers/21/4748/L3646");
  });

  it("splits ids from 2^31-1 up, and every id under longhierarchical, 3-4-4-4-4", () => {
    expect(ledgerPath("/ledgers", 2147483647n, "hierarchical")).toBe("/ledgers/000/0000/0021/4748/L3647");
    expect(ledgerPath("/ledgers", 21474836480n, "hierarchical")).toBe("/ledgers/000/0000/0214/7483/L6480");
    expect(ledgerPath("/ledgers", 1n, "longhierarchical")).toBe("/ledgers/000/0000/0000/0000/L0001");
    expect(ledgerPath("/ledgers", (1n << 63n) - 1n, "longhierarchical")).toBe("/ledgers/922/3372/0368/5477/L5807");
  });

  it("refuses negative ids", () => {
    expect(() => ledgerPath("/ledgers", -1n, "hierarchical")).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_ARGUMENT }),
    );
  });
});

describe("parseLedgerLayout", () => {
  it("reads the manager factory of the LAYOUT znode", () => {
    expect(parseLedgerLayout("2\norg.apache.bookkeeper.meta.HierarchicalLedgerManagerFactory:1")).toBe("hierarchical");
    expect(parseLedgerLayout("2\norg.apache.bookkeeper.meta.LongHierarchicalLedgerManagerFactory:1\n")).toBe(
      "longhierarchical",
    );
  });

  it("refuses flat layouts and garbage", () => {
    expect(() => parseLedgerLayout("2\norg.apache.bookkeeper.meta.FlatLedgerManagerFactory:1")).toThrow(
      expect.objectContaining({ code: ErrorCode.UNSUPPORTED_FORMAT }),
    );
    expect(() => parseLedgerLayout("x\ny")).toThrow(expect.objectContaining({ code: ErrorCode.DECODE_ERROR }));
  });
});
