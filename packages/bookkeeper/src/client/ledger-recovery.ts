// Ledger recovery: how a new owner takes over a ledger whose writer may still be alive. Marks the metadata
// IN_RECOVERY, fences the ledger on the bookies of the last ensemble (a fencing read of the last entry, which
// makes every later normal add of the old writer fail with EFENCED), reads forward from the LAC until an entry is
// provably absent, re-adds every recovered entry through the fence, and closes the ledger at the last recovered
// entry. Concurrent recoveries converge: they recover the same entries and accept each other's close.
import { ErrorCode, NereusError } from "@nereus/core";
import type { DigestManager } from "../digest/digest-manager.js";
import { lastSegment, type LedgerMetadata } from "../metadata/ledger-metadata.js";
import type { VersionedLedgerMetadata } from "../metadata/ledger-metadata-store.js";
import { LedgerEntryReader, type ReadCallOptions } from "./ledger-entry-reader.js";
import { LedgerHandle, type LedgerHandleContext } from "./ledger-handle.js";

const MAX_STATE_ATTEMPTS = 8;

/** What recovery did. */
export interface RecoveryOutcome {
  /** The closed metadata and its znode version. */
  readonly closed: VersionedLedgerMetadata;
  /** Entries beyond the fenced LAC that were found and re-added. */
  readonly recoveredEntries: number;
}

async function markInRecovery(
  context: LedgerHandleContext,
  ledgerId: bigint,
  start: VersionedLedgerMetadata,
  options: ReadCallOptions,
): Promise<VersionedLedgerMetadata> {
  let current = start;
  for (let attempt = 0; attempt < MAX_STATE_ATTEMPTS; attempt += 1) {
    if (current.metadata.state !== "OPEN") return current;
    const next: LedgerMetadata = { ...current.metadata, state: "IN_RECOVERY" };
    const written = await context.store.write(ledgerId, next, current.version, options);
    if (written.ok) return { metadata: next, version: written.version, ctimeMs: current.ctimeMs };
    if (written.current === undefined)
      throw new NereusError(
        ErrorCode.PRIMARY_WAL_TARGET_NOT_FOUND,
        `ledger ${String(ledgerId)} was deleted during recovery`,
        { retryable: false },
      );
    current = written.current;
  }
  throw new NereusError(
    ErrorCode.METADATA_CONDITION_FAILED,
    `ledger ${String(ledgerId)} metadata kept changing while entering recovery`,
  );
}

/**
 * Recovers and closes `ledgerId` (see the module comment). Returns at once when it is already CLOSED.
 * @throws PRIMARY_WAL_READ_FAILED (retryable) when the bookies do not answer enough to decide; the ledger then
 *   stays IN_RECOVERY and recovery can simply be run again.
 */
export async function recoverLedger(
  context: LedgerHandleContext,
  ledgerId: bigint,
  start: VersionedLedgerMetadata,
  digest: DigestManager,
  masterKey: Uint8Array,
  options: ReadCallOptions = {},
): Promise<RecoveryOutcome> {
  if (start.metadata.state === "CLOSED") return { closed: start, recoveredEntries: 0 };
  const inRecovery = await markInRecovery(context, ledgerId, start, options);
  if (inRecovery.metadata.state === "CLOSED") return { closed: inRecovery, recoveredEntries: 0 };
  // Reads use the metadata as it was before recovery: local ensemble changes made while re-adding must not hide
  // entries that are only on the original bookies.
  const original = inRecovery.metadata;
  const reader = new LedgerEntryReader(context.bookies, ledgerId, digest);
  const probe = await reader.probeLastEntries(original, { ...options, fenceKey: masterKey });
  const lastAddConfirmed = Math.max(probe.lastAddConfirmed, lastSegment(original).firstEntryId - 1);
  const length = lastAddConfirmed < 0 ? 0 : (await reader.readEntry(original, lastAddConfirmed, options)).length;
  const handle = new LedgerHandle(context, {
    ledgerId,
    metadata: original,
    version: inRecovery.version,
    digest,
    masterKey,
    recovery: true,
    lastAddConfirmed,
    length,
  });
  const adds: Promise<number>[] = [];
  for (let entryId = lastAddConfirmed + 1; ; entryId += 1) {
    const found = await reader.recoveryRead(original, entryId, masterKey, options);
    if (!found.found) break;
    const add = handle.recoveryAddEntry(entryId, found.entry.payload, found.entry.length, options);
    add.catch(() => undefined);
    adds.push(add);
  }
  await Promise.all(adds);
  await handle.close(options);
  return {
    closed: { metadata: handle.metadata, version: handle.metadataVersion, ctimeMs: inRecovery.ctimeMs },
    recoveredEntries: adds.length,
  };
}
