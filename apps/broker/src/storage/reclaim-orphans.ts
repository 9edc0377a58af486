// The object store's orphan sweeps in a broker (object-wal's ObjectOrphanSweeper): every `sweepIntervalMs` the
// store is listed and objects no root names are deleted once this broker has seen them so for `orphanAgeMs`. Each
// sweep that found or deleted something logs one line; deletions count in `nereus_reclamation_*` (ORPHAN_OBJECT).
import { setTimeout as delay } from "node:timers/promises";
import type { MetadataStore, ObjectStore, ReclamationStats } from "@nereus/core";
import { ObjectOrphanSweeper } from "@nereus/object-wal";
import type { BrokerConfig } from "../config/broker-config.js";
import type { BrokerLogger } from "../logging/broker-logger.js";

/** Running orphan sweeps; `stop()` ends them (a sweep in flight finishes first). */
export interface OrphanSweeps {
  stop(): Promise<void>;
}

/** Starts the sweeps (the first one right away). */
export function startOrphanSweeps(
  config: BrokerConfig,
  stores: { readonly metadata: MetadataStore; readonly objectStore: ObjectStore },
  stats: ReclamationStats,
  logger: BrokerLogger,
): OrphanSweeps {
  const spec = config.storage.reclamation;
  const sweeper = new ObjectOrphanSweeper({
    metadata: stores.metadata,
    objectStore: stores.objectStore,
    cluster: config.cluster,
    orphanAgeMs: spec.orphanAgeMs,
    stats,
  });
  const stopping = new AbortController();
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      const report = await sweeper.sweep(stopping.signal);
      if (report.error !== undefined && !stopping.signal.aborted)
        logger.warn("object orphan sweep failed", { ...report, error: String(report.error) });
      else if (report.orphansSighted > 0 || report.orphansDeleted > 0)
        logger.info("object orphan sweep", { ...report });
      await delay(spec.sweepIntervalMs, undefined, { signal: stopping.signal }).catch(() => undefined);
    }
  })();
  return {
    stop: async () => {
      stopping.abort();
      await loop;
    },
  };
}
