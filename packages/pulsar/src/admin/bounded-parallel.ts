// Runs one admin operation over many topics (the partitions of a partitioned topic) with at most a few in flight,
// so a topic with thousands of partitions does not put thousands of metadata calls on the wire at once.

/** Partitions worked on at the same time. */
const PARALLELISM = 8;

/**
 * `work` for each item, at most {@link PARALLELISM} at a time; the results in item order. Rejects with the first
 * failure once every started call settled (no call is left running behind the caller).
 */
export async function mapBounded<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { readonly error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < items.length && failure === undefined) {
      const index = next;
      next += 1;
      try {
        results[index] = await work(items[index]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLELISM, items.length) }, worker));
  if (failure !== undefined) throw failure.error;
  return results;
}
