// Test wiring: a StreamStore over an InMemoryMetadataStore and in-memory WAL providers, with the built-in
// completion coordinators. Tests that "restart" a process create a new store on the same metadata and providers.
import { GenerationZeroVisibleCoordinator } from "../../src/completion/generation-zero-visible-coordinator.js";
import { StableHeadCoordinator } from "../../src/completion/stable-head-coordinator.js";
import { createStreamStore } from "../../src/stream-store/create-stream-store.js";
import type { StreamStore } from "../../src/stream-store/stream-store.js";
import type { StreamStoreOptions } from "../../src/stream-store/stream-store-options.js";
import { InMemoryMetadataStore } from "../../src/testing/in-memory-metadata-store.js";
import { MemoryWalProvider } from "../../src/testing/memory-wal-provider.js";

export interface MemoryStack {
  readonly metadata: InMemoryMetadataStore;
  readonly objectWal: MemoryWalProvider;
  readonly bookkeeperWal: MemoryWalProvider;
  /** A new store (a new process) on the same metadata and WAL. */
  open(overrides?: Partial<StreamStoreOptions>): StreamStore;
}

export function memoryStack(): MemoryStack {
  const metadata = new InMemoryMetadataStore();
  const objectWal = new MemoryWalProvider({ walKind: "OBJECT" });
  const bookkeeperWal = new MemoryWalProvider({ walKind: "BOOKKEEPER" });
  return {
    metadata,
    objectWal,
    bookkeeperWal,
    open: (overrides = {}) =>
      createStreamStore({
        metadata,
        cluster: "test",
        writerId: "writer-a",
        walWriters: [objectWal, bookkeeperWal],
        walReaders: [objectWal, bookkeeperWal],
        completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
        ...overrides,
      }),
  };
}

const encoder = new TextEncoder();

/** UTF-8 bytes of `text`. */
export function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}
