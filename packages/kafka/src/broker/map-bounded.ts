// Runs one async step per item of a request with at most N steps in flight, answering the results in item order:
// how handlers resolve a request's topics, so a request naming many topics holds N lookups' state at a time rather
// than one per name. It does not cap the number of items (the handlers answer names above their per-request caps
// without resolving them).

/** Topics of one request resolved at a time by the built-in handlers. */
export const TOPICS_IN_FLIGHT_PER_REQUEST = 16;

/**
 * `work(item, index)` for every item, at most `concurrency` at a time, started in item order; resolves with the
 * results in item order, or rejects with the first failure (items not yet started are then not started).
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const index = next;
      next += 1;
      try {
        results[index] = await work(items[index] as T, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), items.length) }, worker));
  return results;
}
