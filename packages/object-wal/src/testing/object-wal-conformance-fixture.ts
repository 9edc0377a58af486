// The WAL provider conformance fixture of the Object WAL over any object store (core's describeWalProviderConformance):
// a writer and a reader over the given store, a fresh in-memory metadata store, slice corruption in the store, and a
// cleanup that closes what the fixture opened and then releases what the caller opened (the store, its directory).
// Test-only.
import type { ObjectStore } from "@nereus/core";
import { InMemoryMetadataStore, corruptObjectSlice, type WalProviderConformanceFixture } from "@nereus/core/testing";
import { ObjectWalReader } from "../reader/object-wal-reader.js";
import { ObjectWalWriter } from "../writer/object-wal-writer.js";

export interface ObjectWalConformanceOptions {
  readonly cluster: string;
  /** The writer's linger (0 flushes each persist at once). */
  readonly lingerMs: number;
  /** Runs after the writer and the metadata store closed (e.g. closes `objectStore`, removes its directory). */
  readonly release?: () => Promise<void>;
}

/** A conformance fixture of an ObjectWalWriter and ObjectWalReader over `objectStore`. */
export function objectWalConformanceFixture(
  objectStore: ObjectStore,
  options: ObjectWalConformanceOptions,
): WalProviderConformanceFixture {
  const metadata = new InMemoryMetadataStore();
  const writer = new ObjectWalWriter({
    objectStore,
    metadata,
    cluster: options.cluster,
    writerId: "conformance",
    flush: { lingerMs: options.lingerMs },
  });
  return {
    writer,
    reader: new ObjectWalReader({ objectStore }),
    metadata,
    corrupt: (target) => corruptObjectSlice(objectStore, target),
    cleanup: async () => {
      await writer.close();
      await metadata.close();
      await options.release?.();
    },
  };
}
