// Lists the elementary cycles of a small directed graph (every closed path that visits no node twice), each once,
// starting at its smallest node in the caller's order. A depth-first search per start node over the nodes after it;
// fine for folder graphs of a few dozen nodes, and bounded by `limit` so a dense tangle cannot run away.
// Pure; the caller decides what a node and an edge are.

/** The cycles found, and whether the search stopped early. */
export interface ElementaryCycles<T> {
  /** Closed paths `[a, b, ..., a]`, `a` the earliest of its nodes in the input order; sorted by that order. */
  readonly cycles: T[][];
  /** True when the search stopped at `limit` cycles; more exist. */
  readonly truncated: boolean;
}

/**
 * Returns every elementary cycle of the graph, up to `limit`. Nodes reached only through `successors` but absent
 * from `nodes` are ignored; a self-edge is the cycle `[a, a]`.
 */
export function findElementaryCycles<T>(
  nodes: readonly T[],
  successors: (node: T) => Iterable<T>,
  limit = 1000,
): ElementaryCycles<T> {
  const order = new Map(nodes.map((node, position) => [node, position]));
  const next = (node: T): T[] => [...new Set(successors(node))].filter((target) => order.has(target));
  const cycles: T[][] = [];
  let truncated = false;

  for (const start of nodes) {
    const floor = order.get(start)!;
    const path: T[] = [start];
    const onPath = new Set<T>([start]);
    const walk = (node: T): void => {
      for (const target of next(node)) {
        if (truncated) return;
        if (target === start) {
          if (cycles.length === limit) {
            truncated = true;
            return;
          }
          cycles.push([...path, start]);
        } else if (order.get(target)! > floor && !onPath.has(target)) {
          path.push(target);
          onPath.add(target);
          walk(target);
          path.pop();
          onPath.delete(target);
        }
      }
    };
    walk(start);
    if (truncated) break;
  }
  return { cycles, truncated };
}
