// Start-up step 1: the data directory lock (when a store keeps files there) and the storage stack (metadata,
// objects, Object WAL runtime, stream store), with every stream append timed by the append histogram. Both are
// registered for undo.
import type { StreamStore } from "@nereus/core";
import type { Histogram } from "prom-client";
import type { BrokerConfig } from "../config/broker-config.js";
import type { BrokerLogger } from "../logging/broker-logger.js";
import { instrumentStreamStore } from "../metrics/instrument-stream-store.js";
import { type DataDirLock, lockDataDir } from "../storage/data-dir-lock.js";
import { type BrokerStorage, openStorage } from "../storage/open-storage.js";
import type { StartupUndo } from "./startup-undo.js";

/** The opened storage and the lock that guards its files. */
export interface OpenedStorage {
  readonly lock: DataDirLock | undefined;
  readonly storage: BrokerStorage;
}

/** Locks the data directory when `usesDataDir`, then opens the storage stack. */
export async function openBrokerStorage(
  config: BrokerConfig,
  usesDataDir: boolean,
  writerId: string,
  logger: BrokerLogger,
  appendSeconds: Histogram<"outcome">,
  undo: StartupUndo,
): Promise<OpenedStorage> {
  let lock: DataDirLock | undefined;
  if (usesDataDir) {
    lock = lockDataDir(config.dataDir);
    const held = lock;
    undo.push(() => held.release());
  }
  const storage = await openStorage({
    config,
    writerId,
    logger,
    instrument: (store: StreamStore) => instrumentStreamStore(store, appendSeconds),
  });
  undo.push(() => storage.close());
  return { lock, storage };
}
