// Test cleanup for any ObjectStore: deletes every object whose key starts with a prefix, a listed page at a time,
// until a listing comes back empty. For tests and benchmarks that share a bucket between runs; not a collector
// (it ignores roots and protections, so never point it at live data).
import type { ObjectStore } from "../spi/object-store.js";

/** Deletes every object of `store` under `prefix` ("" for all it can list). */
export async function deleteObjectsUnder(store: ObjectStore, prefix: string): Promise<void> {
  for (;;) {
    const page = await store.list(prefix);
    if (page.items.length === 0) return;
    await store.deleteMany(page.items.map((item) => item.key));
  }
}
