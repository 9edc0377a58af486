import { describe, expect, it } from "vitest";
import { rendezvousOwner } from "./rendezvous-owner.js";

const RESOURCES = Array.from({ length: 3_000 }, (_, index) => `p:topic-${String(index % 7)}:${String(index)}`);

describe("rendezvousOwner", () => {
  it("has no owner without nodes and the only node with one", () => {
    expect(rendezvousOwner("g:orders", [])).toBeUndefined();
    expect(rendezvousOwner("g:orders", [7])).toBe(7);
  });

  it("does not depend on the order of the nodes", () => {
    for (const resource of RESOURCES.slice(0, 200)) {
      expect(rendezvousOwner(resource, [3, 1, 2])).toBe(rendezvousOwner(resource, [1, 2, 3]));
    }
  });

  it("spreads resources over the nodes", () => {
    const counts = new Map<number, number>();
    for (const resource of RESOURCES) {
      const owner = rendezvousOwner(resource, [1, 2, 3]) ?? -1;
      counts.set(owner, (counts.get(owner) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([1, 2, 3]);
    for (const count of counts.values()) expect(count).toBeGreaterThan(RESOURCES.length / 3 - 200);
  });

  it("moves only the leaving node's resources when a node leaves, and only the joiner's when one joins", () => {
    for (const resource of RESOURCES) {
      const before = rendezvousOwner(resource, [1, 2, 3]);
      const after = rendezvousOwner(resource, [1, 3]);
      if (before !== 2) expect(after).toBe(before);
      const joined = rendezvousOwner(resource, [1, 2, 3, 4]);
      if (joined !== 4) expect(joined).toBe(before);
    }
  });
});
