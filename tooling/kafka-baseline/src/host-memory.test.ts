import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPORTED_KIB_PATH, reportedKib, reportedKibFromText, reportedMibBetween } from "./host-memory.js";

describe("reportedKibFromText", () => {
  it("reads one integer, with or without the trailing newline", () => {
    expect(reportedKibFromText("114573420\n")).toBe(114_573_420);
    expect(reportedKibFromText("0")).toBe(0);
  });

  it("rejects anything else", () => {
    for (const text of ["", "\n", "-1\n", "12 kB\n", "1.5\n", "12\n13\n", " 12\n", "99999999999999999999\n"]) {
      expect(reportedKibFromText(text)).toBeUndefined();
    }
  });
});

describe("reportedKib", () => {
  it("reads the counter from a file", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nereus-host-memory-"));
    try {
      const file = path.join(dir, "reported_kib");
      fs.writeFileSync(file, "2048\n");
      expect(reportedKib(file)).toBe(2048);
      fs.writeFileSync(file, "garbage\n");
      expect(reportedKib(file)).toBeUndefined();
      expect(reportedKib(path.join(dir, "missing"))).toBeUndefined();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("on this machine, reads a number exactly when the kernel counts reported memory", () => {
    const present = fs.existsSync(REPORTED_KIB_PATH);
    const kib = reportedKib();
    if (present) expect(Number.isSafeInteger(kib) && (kib ?? -1) >= 0).toBe(true);
    else expect(kib).toBeUndefined();
  });
});

describe("reportedMibBetween", () => {
  it("is the difference in MiB", () => {
    expect(reportedMibBetween(1024, 3072)).toBe(2);
    expect(reportedMibBetween(5, 5)).toBe(0);
  });

  it("is undefined when a reading is missing or the counter went backwards", () => {
    expect(reportedMibBetween(undefined, 10)).toBeUndefined();
    expect(reportedMibBetween(10, undefined)).toBeUndefined();
    expect(reportedMibBetween(10, 9)).toBeUndefined();
  });
});
