// The append-history property on the in-memory metadata store (the real-etcd run lives in @nereus/metadata).
import { describeAppendHistoryProperty } from "../src/testing/append-history-property.js";
import { InMemoryMetadataStore } from "../src/testing/in-memory-metadata-store.js";

describeAppendHistoryProperty("in-memory metadata", async () => ({ metadata: new InMemoryMetadataStore() }), {
  numRuns: 120,
});
