// The watchers of a MetadataStore that produces its own change events (the in-memory store, SQLite): each watcher
// names a key prefix; a batch of events is delivered to every watcher whose prefix matches, asynchronously (one
// microtask per watcher, after the mutating call returned), in order, and stops at once when the watch is closed.
// A throwing listener is ignored: watch events are hints (docs/architecture.md §3.3). It does not validate prefixes
// or count round trips; the store does. Events are passed as they are (no copies).
import type { WatchEvent, WatchHandle } from "./metadata-store.js";

interface Watcher {
  readonly prefix: string;
  readonly onEvent: (event: WatchEvent) => void;
}

/** The open watches of one store. */
export class PrefixWatchers {
  readonly #watchers = new Set<Watcher>();

  /** Adds a watcher of `prefix`; its handle's idempotent `close` removes it. */
  add(prefix: string, onEvent: (event: WatchEvent) => void): WatchHandle & AsyncDisposable {
    const watcher: Watcher = { prefix, onEvent };
    this.#watchers.add(watcher);
    const close = async (): Promise<void> => {
      this.#watchers.delete(watcher);
    };
    return { close, [Symbol.asyncDispose]: close };
  }

  /** Delivers `events` to every watcher whose prefix matches each event's key. */
  notify(events: readonly WatchEvent[]): void {
    if (events.length === 0) return;
    for (const watcher of this.#watchers) {
      const matching = events.filter((event) => event.key.startsWith(watcher.prefix));
      if (matching.length === 0) continue;
      queueMicrotask(() => {
        for (const event of matching) {
          if (!this.#watchers.has(watcher)) return;
          try {
            watcher.onEvent(event);
          } catch {
            // Watch events are hints; a throwing listener must not break the store.
          }
        }
      });
    }
  }

  /** Ends every watch (no event is delivered after this, including ones already queued). */
  clear(): void {
    this.#watchers.clear();
  }
}
