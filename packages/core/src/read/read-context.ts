// What the read path needs from the store that serves it: metadata and keyspace, the installed WAL readers, the
// resolution cache and the repair budget. Declared here, by its user; the store's `StoreContext` provides it.
import type { ProviderRegistry } from "../profiles/provider-registry.js";
import type { ReadPins } from "../reclamation/read-pins.js";
import type { StreamKeyspace } from "../records/stream-keyspace.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { ReadResolutionCache } from "./read-resolution-cache.js";

/** Bounds of the read path; defaults in docs/architecture.md §10. */
export interface ReadLimits {
  /** Commits one read-path repair may walk before it fails with retriable READ_RESOLUTION_FAILED. */
  readonly repairBudget: number;
}

/** Read-only wiring of the read path, shared by every stream of one store. */
export interface ReadContext {
  readonly metadata: MetadataStore;
  readonly keyspace: StreamKeyspace;
  readonly providers: ProviderRegistry;
  readonly limits: ReadLimits;
  /** Index and generation resolutions the read path reuses (dropped per stream on trim, delete, quarantine). */
  readonly readCache: ReadResolutionCache;
  /** Every fetch pins its targets here until it settled; a condemned target is not fetched. */
  readonly readPins: ReadPins;
}
