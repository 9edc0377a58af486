import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  PAGE_REPORTING_PARAMETERS,
  describePageReporting,
  pageReportingParameters,
  parameterValue,
} from "./host-memory.js";

describe("parameterValue", () => {
  it("reads one token, with or without the trailing newline", () => {
    expect(parameterValue("9\n")).toBe("9");
    expect(parameterValue("Y")).toBe("Y");
  });

  it("rejects anything else", () => {
    for (const text of ["", "\n", "12 kB\n", "12\n13\n", " 12\n"]) expect(parameterValue(text)).toBeUndefined();
  });
});

describe("pageReportingParameters", () => {
  it("reads every parameter of a directory, sorted by name, leaving out malformed ones", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nereus-page-reporting-"));
    try {
      fs.writeFileSync(path.join(dir, "page_reporting_order"), "9\n");
      fs.writeFileSync(path.join(dir, "max_waiting_mib"), "1024\n");
      fs.writeFileSync(path.join(dir, "broken"), "two words\n");
      const parameters = pageReportingParameters(dir);
      expect([...(parameters ?? [])]).toEqual([
        ["max_waiting_mib", "1024"],
        ["page_reporting_order", "9"],
      ]);
      expect(describePageReporting(parameters)).toBe(
        "free page reporting: page_reporting_order=9 max_waiting_mib=1024",
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("is undefined without the directory, and says so", () => {
    const parameters = pageReportingParameters(path.join(os.tmpdir(), "nereus-no-such-dir", "parameters"));
    expect(parameters).toBeUndefined();
    expect(describePageReporting(parameters)).toBe("free page reporting: not reported by this kernel");
  });

  it("on this machine, reads the module's parameters exactly when the kernel has it", () => {
    const parameters = pageReportingParameters();
    if (fs.existsSync(PAGE_REPORTING_PARAMETERS)) expect(parameters).toBeDefined();
    else expect(parameters).toBeUndefined();
  });
});
