// Metadata key layout of the BookKeeper WAL (docs/architecture.md §8.2), under the cluster prefix P = /nereus/clusters/{cluster}:
//   P/streams/{sid}/bookkeeper/v1/writer-state
//   P/physical-bookkeeper/v1/{shard03}/roots/{ledgerHash}
//   P/physical-bookkeeper/v1/{shard03}/ledgers/{ledgerHash}/ranges/{firstEntryId19}/protections/{typeId02}
// `ledgerHash` is the hex SHA-256 of (utf8(clusterAlias) ‖ 0x00 ‖ u64be(ledgerId)); the shard is its first byte
// (000..255) so a later collector can scan roots in bounded, restartable slices. Parsers are strict: a key the
// builders could not have produced throws DECODE_ERROR.
import { ErrorCode, NereusError } from "@nereus/core";
import {
  PhysicalKeySpace,
  clusterPrefix,
  isPhysicalHash,
  notKeyOf,
  pad19,
  parsePad19,
  parseStreamScopedKey,
  protectionTypeSlot,
  sha256Hex,
  streamPrefix,
} from "@nereus/core/internal";

/** Fixed path segments (durable; never rename). */
const BookKeeperKeySegment = {
  STREAM_SCOPE: "bookkeeper",
  WRITER_STATE: "writer-state",
  ROOT: "physical-bookkeeper",
  VERSION: "v1",
  ROOTS: "roots",
  LEDGERS: "ledgers",
  RANGES: "ranges",
  PROTECTIONS: "protections",
} as const;

const TYPE_PATTERN = /^\d{2}$/;
const MAX_LEDGER_ID = (1n << 63n) - 1n;
const encoder = new TextEncoder();
const space = new PhysicalKeySpace(BookKeeperKeySegment.ROOT, "ledger hash");

/** Throws INVALID_ARGUMENT unless `ledgerId` is a BookKeeper ledger id (0 .. 2^63-1). */
export function checkLedgerId(ledgerId: bigint): void {
  if (typeof ledgerId !== "bigint" || ledgerId < 0n || ledgerId > MAX_LEDGER_ID) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `ledger id ${String(ledgerId)} is outside 0..2^63-1`);
  }
}

/** The ledger identity every root and protection is keyed by. */
export function ledgerHash(clusterAlias: string, ledgerId: bigint): string {
  checkLedgerId(ledgerId);
  const alias = encoder.encode(clusterAlias);
  const bytes = new Uint8Array(alias.length + 9);
  bytes.set(alias, 0);
  new DataView(bytes.buffer).setBigUint64(alias.length + 1, ledgerId);
  return sha256Hex(bytes);
}

/** The shard (first hash byte, 3 decimal digits) of a ledger hash. */
function ledgerShard(hash: string): string {
  return space.shard(hash);
}

/** `P/streams/{sid}/bookkeeper/v1/writer-state`: the stream's BookKeeperWriterState. */
export function writerStateKey(cluster: string, streamId: string): string {
  return `${streamPrefix(clusterPrefix(cluster), streamId)}${BookKeeperKeySegment.STREAM_SCOPE}/${BookKeeperKeySegment.VERSION}/${BookKeeperKeySegment.WRITER_STATE}`;
}

/** `P/physical-bookkeeper/v1/`: scan prefix of every root and protection of a cluster. */
export function physicalBookKeeperPrefix(cluster: string): string {
  return space.prefix(cluster);
}

/** `P/physical-bookkeeper/v1/{shard}/roots/{hash}`: one BookKeeperLedgerRoot. */
export function ledgerRootKey(cluster: string, hash: string): string {
  return space.rootKey(cluster, hash);
}

/** `P/physical-bookkeeper/v1/{shard}/roots/`: scan prefix of the roots of one shard (`shard` 0..255). */
export function ledgerRootsShardPrefix(cluster: string, shard: number): string {
  return `${physicalBookKeeperPrefix(cluster)}${String(shard).padStart(3, "0")}/${BookKeeperKeySegment.ROOTS}/`;
}

/** `P/physical-bookkeeper/v1/{shard}/ledgers/{hash}/ranges/`: scan prefix of a ledger's range protections. */
export function ledgerRangesPrefix(cluster: string, hash: string): string {
  return `${space.targetPrefix(cluster, BookKeeperKeySegment.LEDGERS, hash)}${BookKeeperKeySegment.RANGES}/`;
}

/** `.../ledgers/{hash}/ranges/{firstEntryId19}/protections/{typeId02}`: the fixed protection slot of one range. */
export function rangeProtectionKey(cluster: string, hash: string, firstEntryId: number, typeId: number): string {
  return `${ledgerRangesPrefix(cluster, hash)}${pad19(firstEntryId)}/${BookKeeperKeySegment.PROTECTIONS}/${protectionTypeSlot(typeId)}`;
}

export interface WriterStateKeyLocation {
  readonly cluster: string;
  readonly streamId: string;
}

export interface LedgerRootKeyLocation {
  readonly cluster: string;
  readonly ledgerHash: string;
}

export interface RangeProtectionKeyLocation extends LedgerRootKeyLocation {
  readonly firstEntryId: number;
  readonly typeId: number;
}

/** Inverse of `writerStateKey`. */
export function parseWriterStateKey(key: string): WriterStateKeyLocation {
  const scope = [BookKeeperKeySegment.STREAM_SCOPE, BookKeeperKeySegment.VERSION, BookKeeperKeySegment.WRITER_STATE];
  return parseStreamScopedKey(key, "a BookKeeper writer state", scope).location;
}

/** Inverse of `ledgerRootKey`. */
export function parseLedgerRootKey(key: string): LedgerRootKeyLocation {
  const { cluster, hash } = space.parseRootKey(key, "a BookKeeper ledger root");
  return { cluster, ledgerHash: hash };
}

/** Inverse of `rangeProtectionKey`. */
export function parseRangeProtectionKey(key: string): RangeProtectionKeyLocation {
  const parts = space.split(key, "a BookKeeper range protection", 7);
  const [shard, ledgers, hash, ranges, first, protections, type] = parts.rest;
  if (
    ledgers !== BookKeeperKeySegment.LEDGERS ||
    ranges !== BookKeeperKeySegment.RANGES ||
    protections !== BookKeeperKeySegment.PROTECTIONS ||
    hash === undefined ||
    !isPhysicalHash(hash) ||
    shard !== ledgerShard(hash) ||
    type === undefined ||
    !TYPE_PATTERN.test(type)
  ) {
    throw notKeyOf(
      key,
      "a BookKeeper range protection",
      "expected {shard}/ledgers/{hash}/ranges/{firstEntryId19}/protections/{typeId02}",
    );
  }
  let firstEntryId: number;
  try {
    firstEntryId = parsePad19(first ?? "");
  } catch (cause) {
    throw notKeyOf(key, "a BookKeeper range protection", "bad firstEntryId component", cause);
  }
  return { cluster: parts.cluster, ledgerHash: hash, firstEntryId, typeId: Number.parseInt(type, 10) };
}
