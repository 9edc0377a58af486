import { expect, test } from "vitest";
import { findCycles } from "./find-cycles.js";

const graph = (edges: Record<string, string[]>) => (node: string) => edges[node] ?? [];

test("returns one shortest cycle per tangle, starting at its first node in input order", () => {
  const edges = { a: ["b"], b: ["c", "a"], c: ["a"], d: ["e"], e: ["d"], f: ["f"], g: ["a"] };
  expect(findCycles(["a", "b", "c", "d", "e", "f", "g"], graph(edges))).toEqual([
    ["a", "b", "a"],
    ["d", "e", "d"],
    ["f", "f"],
  ]);
});

test("an acyclic graph and edges to unknown nodes give no cycle", () => {
  expect(findCycles(["a", "b", "c"], graph({ a: ["b", "c", "outside"], b: ["c"], outside: ["a"] }))).toEqual([]);
});
