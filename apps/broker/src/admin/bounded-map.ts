// Runs an async function over a list with at most `concurrency` calls in flight, keeping the results in list order.
// The admin endpoints read one stream head per partition this way: enough overlap for etcd round trips, without
// flooding the metadata store.

/** `work` applied to every item, at most `concurrency` at once; rejects with the first failure. */
export async function mapBounded<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index]!, index);
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), items.length) }, lane));
  return results;
}
