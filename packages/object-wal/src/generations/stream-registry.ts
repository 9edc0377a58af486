// The stream registry of materialization work (docs/architecture.md §6.1): one immutable StreamRegistration per
// stream whose committed ranges background workers look after. Registration happens before the stream's first
// append through this runtime (admission), so every committed head is rediscoverable from metadata after any crash;
// no in-memory queue is the truth. Scans are paged and restartable.
import { ErrorCode, NereusError, type MetadataStore, type StorageProfile } from "@nereus/core";
import { streamRegistrationKey, streamRegistryPrefix } from "./materialization-keys.js";
import type { StreamRegistration } from "./materialization-records.js";
import { streamRegistrationCodec } from "./stream-registration-codec.js";

const SCAN_PAGE = 500;
/** Registered streams remembered by this process (a cache: a miss costs one read). */
const REMEMBERED = 100_000;

export class StreamRegistry {
  readonly #metadata: MetadataStore;
  readonly #cluster: string;
  readonly #clock: () => number;
  readonly #known = new Map<string, StorageProfile>();

  constructor(metadata: MetadataStore, cluster: string, clock: () => number = Date.now) {
    this.#metadata = metadata;
    this.#cluster = cluster;
    this.#clock = clock;
  }

  /**
   * Ensures `streamId` is registered with `profile`. Costs nothing once this process saw the registration; a
   * registration with another profile is a METADATA_INVARIANT_VIOLATION (profiles never change).
   */
  async ensureRegistered(streamId: string, profile: StorageProfile, signal?: AbortSignal): Promise<void> {
    const known = this.#known.get(streamId);
    if (known === profile) return;
    const key = streamRegistrationKey(this.#cluster, streamId);
    const value = streamRegistrationCodec.encode({ streamId, profile, registeredAtMillis: this.#clock() });
    let stored;
    try {
      const result = await this.#metadata.txn(
        { compares: [{ key, modRevision: 0 }], writes: [{ type: "put", key, value }], readOnFailure: [key] },
        { signal },
      );
      if (!result.succeeded) stored = result.current.get(key);
    } catch (error) {
      if (!NereusError.is(error) || error.details["ambiguous"] === false) throw error;
      stored = await this.#metadata.get(key, { signal });
      if (stored === undefined) throw error;
    }
    if (stored !== undefined) {
      const existing = streamRegistrationCodec.decode(stored.value, key);
      if (existing.profile !== profile) {
        throw new NereusError(
          ErrorCode.METADATA_INVARIANT_VIOLATION,
          `stream ${streamId} is registered with profile ${existing.profile}, not ${profile}`,
          { retryable: false },
        );
      }
    }
    this.#remember(streamId, profile);
  }

  /** Every registration, in key order, one page per metadata scan. */
  async *scan(signal?: AbortSignal): AsyncGenerator<StreamRegistration, void, undefined> {
    const prefix = streamRegistryPrefix(this.#cluster);
    let startAfter: string | undefined;
    for (;;) {
      const page = await this.#metadata.scan(prefix, {
        limit: SCAN_PAGE,
        ...(startAfter === undefined ? {} : { startAfter }),
        signal,
      });
      for (const item of page.items) {
        const registration = streamRegistrationCodec.decode(item.value, item.key);
        this.#remember(registration.streamId, registration.profile);
        yield registration;
      }
      const last = page.items.at(-1);
      if (!page.more || last === undefined) return;
      startAfter = last.key;
    }
  }

  #remember(streamId: string, profile: StorageProfile): void {
    if (this.#known.size >= REMEMBERED) this.#known.clear();
    this.#known.set(streamId, profile);
  }
}
