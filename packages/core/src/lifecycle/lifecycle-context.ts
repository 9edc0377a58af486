// What head lifecycle changes (create, seal, trim, delete) need from the store: metadata, keyspace and the wall
// clock. Declared here, by its user; the store's `StoreContext` provides it.
import type { StreamKeyspace } from "../records/stream-keyspace.js";
import type { MetadataStore } from "../spi/metadata-store.js";

/** Read-only wiring of lifecycle transitions, shared by every stream of one store. */
export interface LifecycleContext {
  readonly metadata: MetadataStore;
  readonly keyspace: StreamKeyspace;
  /** Wall clock in milliseconds (createdAt of new heads). */
  readonly clock: () => number;
}
