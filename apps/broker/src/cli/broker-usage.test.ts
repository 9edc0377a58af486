import { describe, expect, test } from "vitest";
import { BROKER_SETTINGS } from "../config/broker-settings.js";
import { brokerUsage } from "./broker-usage.js";
import { brokerVersion } from "./broker-version.js";

describe("nereus --help and --version", () => {
  test("the usage names every option with its variable, within 100 columns; the version is the package's", () => {
    const usage = brokerUsage();
    for (const setting of BROKER_SETTINGS) {
      expect(usage).toContain(`--${setting.flag}`);
      expect(usage).toContain(`[${setting.env}]`);
    }
    for (const section of ["Usage: nereus", "General options:", "Examples:", "Exit codes:", "NEREUS_CONFIG"])
      expect(usage).toContain(section);
    for (const line of usage.split("\n")) expect(line.length, line).toBeLessThanOrEqual(100);
    expect(brokerVersion()).toMatch(/^\d+\.\d+\.\d+/);
    expect(brokerVersion("/")).toBe("unknown");
  });
});
