import { describe, expect, it } from "vitest";
import { DEFAULT_BENCH_OPTIONS, parseBenchOptions } from "./bench-options.js";

describe("parseBenchOptions", () => {
  it("answers the defaults without options: 3 rounds at 1 and 8 partitions, both brokers", () => {
    expect(parseBenchOptions([])).toEqual(DEFAULT_BENCH_OPTIONS);
    expect(DEFAULT_BENCH_OPTIONS.partitions).toEqual([1, 8]);
    expect(DEFAULT_BENCH_OPTIONS.rounds).toBeGreaterThanOrEqual(3);
  });

  it("reads every option (and skips the -- pnpm passes through)", () => {
    const options = parseBenchOptions([
      "--",
      "--rounds",
      "1",
      "--messages",
      "5000",
      "--partitions",
      "1, 4",
      "--only",
      "nereus",
      "--entry",
      "dist",
      "--rate",
      "200",
      "--latency-seconds",
      "3",
      "--warmup",
      "0",
      "--phases",
      "latency",
    ]);
    expect(options).toMatchObject({
      rounds: 1,
      messages: 5000,
      partitions: [1, 4],
      only: "nereus",
      entry: "dist",
      rate: 200,
      latencySeconds: 3,
      warmup: 0,
      phases: ["latency"],
    });
  });

  it("refuses unknown options, missing values and values out of range before anything starts", () => {
    expect(() => parseBenchOptions(["--records", "5"])).toThrow(/unknown option --records/);
    expect(() => parseBenchOptions(["--rounds"])).toThrow(/needs a value/);
    expect(() => parseBenchOptions(["--rounds", "0"])).toThrow(/--rounds must be an integer in \[1, 100\]/);
    expect(() => parseBenchOptions(["--size", "4"])).toThrow(/--size/);
    expect(() => parseBenchOptions(["--messages", "1e3"])).toThrow(/--messages/);
    expect(() => parseBenchOptions(["--only", "kafka"])).toThrow(/--only is apache or nereus/);
    expect(() => parseBenchOptions(["--partitions", "1,,8"])).toThrow(/--partitions/);
    expect(() => parseBenchOptions(["--phases", "latency,produce"])).toThrow(/--phases are throughput and\/or latency/);
  });
});
