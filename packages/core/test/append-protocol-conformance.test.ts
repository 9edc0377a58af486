// Runs the append-protocol conformance suite against the in-memory reference metadata store.
import { describeAppendProtocolConformance } from "../src/testing/append-protocol-conformance.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";

describeAppendProtocolConformance("InMemoryMetadataStore", async () => {
  const metadata = new InMemoryMetadataStore();
  return { metadata, cleanup: () => metadata.close() };
});
