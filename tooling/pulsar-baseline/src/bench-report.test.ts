import { describe, expect, it } from "vitest";
import { median, medianOf, ratio, renderComparison } from "./bench-report.js";

describe("median", () => {
  it("is the middle value, or the mean of the middle two", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it("ignores values that are not finite and is undefined for none", () => {
    expect(median([Number.NaN, 5, Number.POSITIVE_INFINITY])).toBe(5);
    expect(median([])).toBeUndefined();
  });
});

describe("medianOf and ratio", () => {
  it("takes the rounds that have the metric and counts them", () => {
    expect(medianOf([{ produceMBs: 10 }, {}, { produceMBs: 30 }], "produceMBs")).toEqual({ value: 20, count: 2 });
  });

  it("divides Nereus by Apache, undefined when a side is missing or Apache is 0", () => {
    expect(ratio(30, 20)).toBe(1.5);
    expect(ratio(undefined, 20)).toBeUndefined();
    expect(ratio(1, 0)).toBeUndefined();
  });
});

describe("renderComparison", () => {
  const table = renderComparison({
    title: "1 partition",
    apacheLabel: "Apache Pulsar 4.2.4",
    roundCount: 3,
    apache: {
      rounds: [
        { produceMBs: 10, publishP99Ms: 4 },
        { produceMBs: 20, publishP99Ms: 6 },
        { produceMBs: 30, publishP99Ms: 5 },
      ],
      failures: [],
    },
    nereus: {
      rounds: [{ produceMBs: 40, publishP99Ms: 2 }, { produceMBs: 50, publishP99Ms: 3 }, {}],
      failures: ["round 3, 1 partition(s), produce: boom"],
    },
  });
  const lines = table.split("\n");

  it("prints both medians, the Nereus/Apache ratio and the goal of each metric", () => {
    expect(lines[0]).toBe("1 partition");
    expect(lines[1]).toMatch(/^metric\s+Apache Pulsar 4\.2\.4\s+Nereus\s+Nereus\/Apache\s+goal$/);
    expect(lines.find((line) => line.startsWith("produce MB/s"))).toMatch(/20\.0\s+45\.0 \(2\/3\)\s+2\.25x\s+>= 1$/);
    expect(lines.find((line) => line.startsWith("publish p99 ms"))).toMatch(/5\.00\s+2\.50 \(2\/3\)\s+0\.50x\s+<= 1$/);
  });

  it("shows a metric no round produced as - and lists the failures after the table", () => {
    expect(lines.find((line) => line.startsWith("consume MB/s"))).toMatch(/-\s+-\s+-\s+>= 1$/);
    expect(lines.slice(-2)).toEqual(["failures:", "  Nereus: round 3, 1 partition(s), produce: boom"]);
  });
});
