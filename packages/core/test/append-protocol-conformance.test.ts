// Runs the append-protocol conformance suite against the in-memory reference metadata store: once with the default
// in-memory WAL (every capability), once with WAL providers the stack supplies itself and no fault-injection
// capability (the path a real provider takes; the capability tests are then not registered).
import { describeAppendProtocolConformance } from "../src/testing/append-protocol-conformance.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";
import { MemoryWalProvider } from "../src/testing/memory-wal-provider.js";

describeAppendProtocolConformance("InMemoryMetadataStore", async () => {
  const metadata = new InMemoryMetadataStore();
  return { metadata, cleanup: () => metadata.close() };
});

describeAppendProtocolConformance(
  "InMemoryMetadataStore, stack-supplied WAL without fault injection",
  async () => {
    const metadata = new InMemoryMetadataStore();
    const objectWal = new MemoryWalProvider({ walKind: "OBJECT" });
    const bookkeeperWal = new MemoryWalProvider({ walKind: "BOOKKEEPER" });
    return {
      metadata,
      wal: {
        walWriters: [objectWal, bookkeeperWal],
        walReaders: [objectWal, bookkeeperWal],
        walIo: () => objectWal.stats.physicalIo + bookkeeperWal.stats.physicalIo,
      },
      cleanup: () => metadata.close(),
    };
  },
  { walCapabilities: [] },
);
