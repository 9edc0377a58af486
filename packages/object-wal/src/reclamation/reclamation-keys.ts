// Metadata key layout of the reclamation journal, under P = /nereus/clusters/{cluster}:
//   P/streams/{sid}/reclamation/v1/objects/{objectKeyHash}     ObjectReclamation
// Under the stream's own prefix, so a stream's collector finds its pending work with one bounded scan.
import { clusterPrefix, isPhysicalHash, notKeyOf, parseStreamScopedKey, streamPrefix } from "@nereus/core/internal";

/** Fixed path segments (durable; never rename). */
const ReclamationKeySegment = {
  ROOT: "reclamation",
  VERSION: "v1",
  OBJECTS: "objects",
} as const;

/** `P/streams/{sid}/reclamation/v1/objects/`: scan prefix of a stream's journal. */
export function reclamationJournalPrefix(cluster: string, streamId: string): string {
  return `${streamPrefix(clusterPrefix(cluster), streamId)}${ReclamationKeySegment.ROOT}/${ReclamationKeySegment.VERSION}/${ReclamationKeySegment.OBJECTS}/`;
}

/** `P/streams/{sid}/reclamation/v1/objects/{objectKeyHash}`. */
export function objectReclamationKey(cluster: string, streamId: string, keyHash: string): string {
  return `${reclamationJournalPrefix(cluster, streamId)}${keyHash}`;
}

/** The stream and object key hash of a journal key (DECODE_ERROR for anything else). */
export function parseObjectReclamationKey(key: string): {
  readonly cluster: string;
  readonly streamId: string;
  readonly objectKeyHash: string;
} {
  const { location, rest } = parseStreamScopedKey(key, "an object reclamation", [
    ReclamationKeySegment.ROOT,
    ReclamationKeySegment.VERSION,
    ReclamationKeySegment.OBJECTS,
    "*",
  ]);
  const hash = rest[0] ?? "";
  if (!isPhysicalHash(hash)) throw notKeyOf(key, "an object reclamation", "bad object key hash");
  return { ...location, objectKeyHash: hash };
}
