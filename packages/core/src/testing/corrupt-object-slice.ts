// Test support for WAL providers that write OBJECT_SLICE targets: corrupts a committed slice in its object store
// the way disk or transit corruption would (one bit flipped in the middle of the slice, the object otherwise
// unchanged), so a conformance suite can check that readers detect it through the slice checksum.
import type { ReadTarget } from "../domain/read-target.js";
import type { ObjectStore } from "../spi/object-store.js";

/** Rewrites the object of `target` with bit 0 of the slice's middle byte flipped. Throws for other target types. */
export async function corruptObjectSlice(store: ObjectStore, target: ReadTarget): Promise<void> {
  if (target.type !== "OBJECT_SLICE") throw new Error("not an object slice");
  const bytes = await store.get(target.objectKey);
  const at = target.sliceOffset + Math.floor(target.sliceLength / 2);
  bytes[at] = (bytes[at] ?? 0) ^ 0x01;
  await store.deleteMany([target.objectKey]);
  await store.putIfAbsent(target.objectKey, bytes);
}
