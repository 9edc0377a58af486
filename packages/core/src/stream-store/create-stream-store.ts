// Factory of the StreamStore (the house style's `createX`): validates the wiring and returns the store.
import { StreamStore } from "./stream-store.js";
import type { StreamStoreOptions } from "./stream-store-options.js";

/**
 * Creates a StreamStore over `options.metadata` for `options.cluster`. Throws INVALID_ARGUMENT for wiring errors
 * (two providers for one kind, an SPI version mismatch, a bad cluster name or TTL). Does no I/O.
 */
export function createStreamStore(options: StreamStoreOptions): StreamStore {
  return new StreamStore(options);
}
