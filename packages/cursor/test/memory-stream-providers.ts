// The in-memory stores the stream-layer tests build their fixtures on (core's reference stores, with fault
// injection). Kept here, outside src/, because production folders may not import `@nereus/core/testing`.
import {
  FaultInjectingMetadataStore,
  InMemoryMetadataStore,
  InMemoryObjectStore,
  MemoryWalProvider,
} from "@nereus/core/testing";
import type { FixtureProviders } from "../src/stream/test-fixtures/stream-fixture.js";

export const memoryStreamProviders: FixtureProviders = {
  newMetadataStore: () => new InMemoryMetadataStore(),
  withFaults: (inner) => new FaultInjectingMetadataStore(inner),
  newObjectStore: () => new InMemoryObjectStore(),
  newObjectWal: () => new MemoryWalProvider({ walKind: "OBJECT" }),
};
