// Log lines for the filesystem object store's write health: the first failed write is logged at once ("storage
// cannot write", with the reason), later ones at most once per interval (30 s by default) with the number left out
// since the last line, and the first write that succeeds after failures is logged as "storage writable again". A full
// disk fails every append: without this there is either no line at all or one per request.
import type { NereusError } from "@nereus/core";
import type { StoreWriteHealth, StoreWriteHealthListener, StoreWriter } from "@nereus/object-wal";
import type { BrokerLogger } from "../logging/broker-logger.js";
import { RateLimitedLog } from "../logging/rate-limited-log.js";

/** Default minimum time between two "storage cannot write" lines after the first. */
const STORAGE_WRITE_LOG_INTERVAL_MS = 30_000;

/** A {@link StoreWriteHealthListener} that logs (see the module comment). */
export class StorageWriteLog implements StoreWriteHealthListener {
  readonly #logger: BrokerLogger;
  readonly #clock: () => number;
  readonly #failures: RateLimitedLog;

  constructor(logger: BrokerLogger, options: { readonly intervalMs?: number; readonly clock?: () => number } = {}) {
    this.#logger = logger;
    this.#clock = options.clock ?? Date.now;
    this.#failures = new RateLimitedLog(options.intervalMs ?? STORAGE_WRITE_LOG_INTERVAL_MS, this.#clock);
  }

  readonly onWriteFailure = (error: NereusError, writer: StoreWriter, health: StoreWriteHealth): void => {
    this.#failures.record((suppressed) =>
      this.#logger.warn("storage cannot write", {
        writer,
        error: error.message,
        retryable: error.retryable,
        ...(health.writable ? {} : { failingSince: new Date(health.since).toISOString(), failures: health.failures }),
        ...(suppressed === 0 ? {} : { suppressed }),
      }),
    );
  };

  readonly onWritable = (after: Extract<StoreWriteHealth, { writable: false }>): void => {
    this.#failures.reset();
    this.#logger.info("storage writable again", {
      failures: after.failures,
      unwritableMs: Math.max(0, this.#clock() - after.since),
      reason: after.reason,
    });
  };
}
