// Which storage profiles a broker can run, from what its storage provides: the Object WAL profiles always; the
// BookKeeper profiles with a BookKeeper cluster configured; BOOKKEEPER_WAL_SYNC_OBJECT, which acknowledges an append
// only once background materialization has written it to an object generation, also needs that worker.
import type { StorageProfileName } from "@nereus/core";

/** What a broker's storage provides for the profiles. */
export interface StorageServices {
  /** A BookKeeper cluster is configured (`storage.bookkeeper`). */
  readonly bookkeeper: boolean;
  /** The background materialization worker runs (`storage.materialization` is not "off"). */
  readonly materialization: boolean;
}

/** The profiles that write BookKeeper ledgers. */
export const BOOKKEEPER_PROFILES: ReadonlySet<StorageProfileName> = new Set<StorageProfileName>([
  "BOOKKEEPER_WAL_ONLY",
  "BOOKKEEPER_WAL_ASYNC_OBJECT",
  "BOOKKEEPER_WAL_SYNC_OBJECT",
]);

/** Why a broker providing `services` cannot run `profile` (one sentence), or undefined when it can. */
export function unservedProfileReason(services: StorageServices, profile: StorageProfileName): string | undefined {
  if (BOOKKEEPER_PROFILES.has(profile) && !services.bookkeeper) {
    return `${profile} needs BookKeeper, and this broker has none configured (storage.bookkeeper: --bookkeeper-zookeeper or --bookkeeper-metadata-service-uri)`;
  }
  if (profile === "BOOKKEEPER_WAL_SYNC_OBJECT" && !services.materialization) {
    return `${profile} acknowledges an append once background materialization has copied it to an object, which storage.materialization "off" turns off`;
  }
  return undefined;
}
