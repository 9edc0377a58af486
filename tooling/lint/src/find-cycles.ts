// Finds cycles in a directed graph: Tarjan's strongly connected components, then one shortest cycle per
// component (through its first node in the caller's order), so each tangle is reported once with a readable path.
// Pure; the caller decides what a node and an edge are.

/**
 * Returns one cycle per strongly connected component that has one, as a closed path `[a, b, ..., a]`.
 * Nodes reached only through `successors` but absent from `nodes` are ignored.
 */
export function findCycles<T>(nodes: readonly T[], successors: (node: T) => Iterable<T>): T[][] {
  const known = new Set(nodes);
  const next = (node: T): T[] => [...successors(node)].filter((target) => known.has(target));
  const index = new Map<T, number>();
  const lowLink = new Map<T, number>();
  const onStack = new Set<T>();
  const stack: T[] = [];
  const components: T[][] = [];
  let counter = 0;

  const connect = (node: T): void => {
    index.set(node, counter);
    lowLink.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next(node)) {
      if (!index.has(target)) {
        connect(target);
        lowLink.set(node, Math.min(lowLink.get(node)!, lowLink.get(target)!));
      } else if (onStack.has(target)) {
        lowLink.set(node, Math.min(lowLink.get(node)!, index.get(target)!));
      }
    }
    if (lowLink.get(node) === index.get(node)) {
      const component: T[] = [];
      let member: T;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      components.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) connect(node);

  const order = new Map(nodes.map((node, position) => [node, position]));
  const cycles: T[][] = [];
  for (const component of components) {
    const members = new Set(component);
    const start = component.reduce((best, node) => (order.get(node)! < order.get(best)! ? node : best));
    const cycle = shortestCycle(start, (node) => next(node).filter((target) => members.has(target)));
    if (cycle) cycles.push(cycle);
  }
  return cycles.sort((left, right) => order.get(left[0]!)! - order.get(right[0]!)!);
}

function shortestCycle<T>(start: T, next: (node: T) => T[]): T[] | undefined {
  const previous = new Map<T, T>();
  const queue: T[] = [start];
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head]!;
    for (const target of next(node)) {
      if (target === start) {
        const path = [start];
        for (let step: T | undefined = node; step !== undefined && step !== start; step = previous.get(step)) {
          path.unshift(step);
        }
        path.unshift(start);
        return path;
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return undefined;
}
