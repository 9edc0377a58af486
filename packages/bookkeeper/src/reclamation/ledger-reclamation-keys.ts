// Metadata key layout of the ledger reclamation journal, under P = /nereus/clusters/{cluster}:
//   P/streams/{sid}/reclamation/v1/ledgers/{ledgerHash}     LedgerReclamation
// Beside the Object WAL's journal (`.../reclamation/v1/objects/`), under the stream's own prefix, so a stream's
// collector finds its pending ledgers with one bounded scan.
import { clusterPrefix, isPhysicalHash, notKeyOf, parseStreamScopedKey, streamPrefix } from "@nereus/core/internal";

/** Fixed path segments (durable; never rename). */
const LedgerReclamationKeySegment = {
  ROOT: "reclamation",
  VERSION: "v1",
  LEDGERS: "ledgers",
} as const;

/** `P/streams/{sid}/reclamation/v1/ledgers/`: scan prefix of a stream's ledger journal. */
export function ledgerJournalPrefix(cluster: string, streamId: string): string {
  const { ROOT, VERSION, LEDGERS } = LedgerReclamationKeySegment;
  return `${streamPrefix(clusterPrefix(cluster), streamId)}${ROOT}/${VERSION}/${LEDGERS}/`;
}

/** `P/streams/{sid}/reclamation/v1/ledgers/{ledgerHash}`. */
export function ledgerReclamationKey(cluster: string, streamId: string, ledgerHash: string): string {
  return `${ledgerJournalPrefix(cluster, streamId)}${ledgerHash}`;
}

/** The stream and ledger hash of a journal key (DECODE_ERROR for anything else). */
export function parseLedgerReclamationKey(key: string): {
  readonly cluster: string;
  readonly streamId: string;
  readonly ledgerHash: string;
} {
  const { ROOT, VERSION, LEDGERS } = LedgerReclamationKeySegment;
  const { location, rest } = parseStreamScopedKey(key, "a ledger reclamation", [ROOT, VERSION, LEDGERS, "*"]);
  const hash = rest[0] ?? "";
  if (!isPhysicalHash(hash)) throw notKeyOf(key, "a ledger reclamation", "bad ledger hash");
  return { ...location, ledgerHash: hash };
}
