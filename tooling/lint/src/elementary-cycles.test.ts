import { expect, test } from "vitest";
import { findElementaryCycles } from "./elementary-cycles.js";

const graph = (edges: Record<string, string[]>) => (node: string) => edges[node] ?? [];

test("lists every elementary cycle once, from its earliest node, including self-edges", () => {
  const edges = { a: ["b", "c"], b: ["a", "c"], c: ["a"], d: ["d"], e: ["a"] };
  expect(findElementaryCycles(["a", "b", "c", "d", "e"], graph(edges))).toEqual({
    cycles: [
      ["a", "b", "a"],
      ["a", "b", "c", "a"],
      ["a", "c", "a"],
      ["d", "d"],
    ],
    truncated: false,
  });
});

test("an acyclic graph and edges to unknown nodes give no cycle", () => {
  expect(findElementaryCycles(["a", "b"], graph({ a: ["b", "outside"], outside: ["a"] })).cycles).toEqual([]);
});

test("stops at the limit and says so", () => {
  const complete = graph({ a: ["b", "c"], b: ["a", "c"], c: ["a", "b"] });
  const result = findElementaryCycles(["a", "b", "c"], complete, 2);
  expect(result.cycles).toHaveLength(2);
  expect(result.truncated).toBe(true);
});
