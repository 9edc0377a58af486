// This broker's view of the stored ACLs: a snapshot (AclIndex) loaded from the AclStore and kept fresh two ways —
// a watch on the ACL keys reloads it as soon as any broker changes an ACL (watch events are hints and may be lost),
// and a periodic reload bounds the staleness when one is (refreshIntervalMs). Reloads are coalesced: at most one
// runs, and requests arriving meanwhile share the next one. A failed reload keeps the previous snapshot.
import type { MetadataStore, WatchHandle } from "@nereus/core";
import type { KafkaBrokerLogger } from "../../logging/broker-logger.js";
import type { AclIndex } from "./acl-index.js";
import type { AclStore } from "./acl-store.js";

/** Options of {@link AclCache}. */
export interface AclCacheOptions {
  readonly store: AclStore;
  readonly metadata: MetadataStore;
  readonly logger: KafkaBrokerLogger;
  /** Period of the backstop reload in ms (0: watch only). */
  readonly refreshIntervalMs: number;
}

/** See the module comment. */
export class AclCache {
  readonly #options: AclCacheOptions;
  readonly #closing = new AbortController();
  #index: AclIndex | undefined;
  #running: Promise<AclIndex> | undefined;
  #queued: Promise<AclIndex> | undefined;
  #watch: Promise<WatchHandle | undefined> | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(options: AclCacheOptions) {
    this.#options = options;
  }

  /** Starts the watch and the periodic reload, and the first load. Idempotent. */
  start(): void {
    if (this.#watch !== undefined || this.#closing.signal.aborted) return;
    const { metadata, store, logger, refreshIntervalMs } = this.#options;
    this.#watch = metadata
      .watch(store.keyspace.prefix(), () => this.#background())
      .then(
        async (handle) => {
          if (!this.#closing.signal.aborted) return handle;
          await handle.close();
          return undefined;
        },
        (error: unknown) => {
          logger.warn("cannot watch ACL changes: other brokers' changes are seen at the periodic reload", {
            error: String(error),
          });
          return undefined;
        },
      );
    if (refreshIntervalMs > 0) {
      this.#timer = setInterval(() => this.#background(), refreshIntervalMs);
      this.#timer.unref();
    }
    this.#background();
  }

  /** The current snapshot; waits for the first load (and retries it when it failed). */
  current(): Promise<AclIndex> {
    return this.#index === undefined ? this.refresh() : Promise.resolve(this.#index);
  }

  /** Reloads now; resolves with a snapshot loaded after this call (this broker's own changes are in it). */
  refresh(): Promise<AclIndex> {
    if (this.#queued !== undefined) return this.#queued;
    if (this.#running === undefined) return this.#load();
    const queued = this.#running
      .catch(() => undefined)
      .then(() => {
        this.#queued = undefined;
        return this.#load();
      });
    this.#queued = queued;
    return queued;
  }

  /** Stops the watch and the timer. Idempotent. */
  async close(): Promise<void> {
    this.#closing.abort();
    if (this.#timer !== undefined) clearInterval(this.#timer);
    const handle = await this.#watch;
    await handle?.close();
  }

  #load(): Promise<AclIndex> {
    const running = this.#options.store.load(this.#closing.signal).then((index) => {
      this.#index = index;
      return index;
    });
    this.#running = running;
    const clear = (): void => {
      if (this.#running === running) this.#running = undefined;
    };
    running.then(clear, clear);
    return running;
  }

  #background(): void {
    if (this.#closing.signal.aborted) return;
    this.refresh().catch((error: unknown) => {
      if (!this.#closing.signal.aborted)
        this.#options.logger.warn("ACL reload failed; the previous ACLs stay in force", { error: String(error) });
    });
  }
}
