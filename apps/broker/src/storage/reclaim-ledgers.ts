// The BookKeeper ledger collector of a broker with `storage.bookkeeper` (packages/bookkeeper/README.md, "Ledger
// reclamation"): it shares the stream store's read pins, skips ranges a materialization task of the Object WAL
// runtime is reading (the materialization guard), takes the grace period and minimum age of `storage.reclamation`,
// and logs its runs and sweeps through the broker's logger.
import { BookKeeperLedgerReclaimer } from "@nereus/bookkeeper";
import type { MetadataStore, ReadPins } from "@nereus/core";
import { materializationGuard } from "@nereus/object-wal";
import type { BrokerConfig } from "../config/broker-config.js";
import type { BrokerLogger } from "../logging/broker-logger.js";
import type { OpenedBookKeeper } from "./open-bookkeeper.js";
import { reclamationLogger } from "./reclamation-log.js";

/** The ledger collector of this broker (not started: `start()` begins its sweeps). */
export function createLedgerReclaimer(
  config: BrokerConfig,
  bookkeeper: OpenedBookKeeper,
  stores: { readonly metadata: MetadataStore; readonly readPins: ReadPins },
  writerId: string,
  logger: BrokerLogger,
): BookKeeperLedgerReclaimer {
  const spec = config.storage.reclamation;
  return new BookKeeperLedgerReclaimer({
    metadata: stores.metadata,
    client: bookkeeper.client,
    cluster: config.cluster,
    clusterAlias: config.storage.bookkeeper?.clusterAlias ?? "",
    writerId,
    readPins: stores.readPins,
    materializationGuard: materializationGuard(stores.metadata, config.cluster),
    policy: { graceMs: spec.graceMs, minLedgerAgeMs: spec.minObjectAgeMs, orphanAgeMs: spec.orphanAgeMs },
    intervalMs: spec.sweepIntervalMs,
    logger: reclamationLogger(logger),
  });
}
