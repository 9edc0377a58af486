// Key layout of the cursor package, under the cluster prefix P = /nereus/clusters/{cluster}:
//   P/cursors/{streamId}/owner                      CursorOwnerRecord (one per stream)
//   P/cursors/{streamId}/retention                  CursorRetentionRecord (one per stream)
//   P/cursors/{streamId}/roots/{cursorNameHash}     CursorStateRecord (one per cursor name, tombstones included)
// and of the snapshot objects in the ObjectStore:
//   cursor-snapshots/v1/{cluster}/{streamId}/{cursorNameHash}/{generation19}/{snapshotId}.ncs
// Cluster and stream ids go through core's key-component codec, generations through pad19; a cursor name never
// appears in a key (names are arbitrary text up to 1 KiB): its 128-bit hash does, and the root stores the exact
// name so a collision is detected. Builders throw INVALID_ARGUMENT for bad input; parsers accept exactly what the
// builders produce and throw DECODE_ERROR for anything else.
import { ErrorCode, NereusError, encodeStrictUtf8 } from "@nereus/core";
import {
  clusterPrefix,
  decodeKeyComponent,
  encodeKeyComponent,
  isWellFormedString,
  pad19,
  parsePad19,
  sha256Hex,
} from "@nereus/core/internal";

/** Largest cursor name, in UTF-8 bytes. */
export const MAX_CURSOR_NAME_BYTES = 1024;

const CURSORS = "cursors";
const OWNER = "owner";
const RETENTION = "retention";
const ROOTS = "roots";
const SNAPSHOTS = "cursor-snapshots";
const SNAPSHOT_LAYOUT_VERSION = "v1";
const SNAPSHOT_SUFFIX = ".ncs";
const NAME_HASH_DOMAIN = "nereus-cursor-v1\0";
const HEX128 = /^[0-9a-f]{32}$/;

/** True when `value` is 32 lowercase hex digits (cursor name hashes, session, snapshot and attempt ids). */
export function isHex128(value: unknown): value is string {
  return typeof value === "string" && HEX128.test(value);
}

/**
 * Throws NereusError(INVALID_ARGUMENT) unless `name` is a valid cursor name: a non-empty string without unpaired
 * UTF-16 surrogates (so it has exactly one UTF-8 form) of at most {@link MAX_CURSOR_NAME_BYTES} UTF-8 bytes.
 */
export function checkCursorName(name: unknown): asserts name is string {
  const problem = cursorNameProblem(name);
  if (problem !== undefined) throw new NereusError(ErrorCode.INVALID_ARGUMENT, problem);
}

/** Why `name` is not a valid cursor name, or undefined when it is one. */
export function cursorNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string" || name.length === 0) return "cursor name must be a non-empty string";
  if (!isWellFormedString(name)) return "cursor name contains an unpaired UTF-16 surrogate";
  // A UTF-16 code unit is at most 3 UTF-8 bytes: short names skip the encoding.
  if (name.length * 3 <= MAX_CURSOR_NAME_BYTES) return undefined;
  const size = encodeStrictUtf8(name).length;
  if (size > MAX_CURSOR_NAME_BYTES) {
    return `cursor name is ${String(size)} UTF-8 bytes; the maximum is ${String(MAX_CURSOR_NAME_BYTES)}`;
  }
  return undefined;
}

/**
 * The key component of a cursor: the first 32 hex digits (128 bits) of SHA-256 over the UTF-8 bytes of
 * `"nereus-cursor-v1\0" + name`. Throws INVALID_ARGUMENT for an invalid name (see {@link checkCursorName}).
 */
export function cursorNameHash(name: string): string {
  checkCursorName(name);
  return sha256Hex(encodeStrictUtf8(NAME_HASH_DOMAIN + name)).slice(0, 32);
}

function checkStreamId(streamId: unknown): asserts streamId is string {
  if (typeof streamId !== "string" || streamId.length === 0) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, "streamId must be a non-empty string");
  }
}

function checkHex128(name: string, value: unknown): asserts value is string {
  if (!isHex128(value)) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `${name} must be 32 lowercase hex digits, got ${String(value)}`);
  }
}

/** `P/cursors/{streamId}/`: prefix of every cursor record of one stream. */
export function cursorStreamPrefix(cluster: string, streamId: string): string {
  checkStreamId(streamId);
  return `${clusterPrefix(cluster)}/${CURSORS}/${encodeKeyComponent(streamId)}/`;
}

/** `P/cursors/{streamId}/owner`: the stream's CursorOwnerRecord. */
export function cursorOwnerKey(cluster: string, streamId: string): string {
  return `${cursorStreamPrefix(cluster, streamId)}${OWNER}`;
}

/** `P/cursors/{streamId}/retention`: the stream's CursorRetentionRecord. */
export function cursorRetentionKey(cluster: string, streamId: string): string {
  return `${cursorStreamPrefix(cluster, streamId)}${RETENTION}`;
}

/** `P/cursors/{streamId}/roots/`: scan prefix of every cursor root of one stream. */
export function cursorRootsPrefix(cluster: string, streamId: string): string {
  return `${cursorStreamPrefix(cluster, streamId)}${ROOTS}/`;
}

/** `P/cursors/{streamId}/roots/{nameHash}`: one cursor's CursorStateRecord. */
export function cursorRootKey(cluster: string, streamId: string, nameHash: string): string {
  checkHex128("cursorNameHash", nameHash);
  return `${cursorRootsPrefix(cluster, streamId)}${nameHash}`;
}

/** `cursor-snapshots/v1/{cluster}/{streamId}/{nameHash}/{generation19}/{snapshotId}.ncs`: one snapshot object. */
export function snapshotObjectKey(
  cluster: string,
  streamId: string,
  nameHash: string,
  generation: number,
  snapshotId: string,
): string {
  checkStreamId(streamId);
  checkHex128("cursorNameHash", nameHash);
  checkHex128("snapshotId", snapshotId);
  if (!Number.isSafeInteger(generation) || generation < 1) {
    throw new NereusError(ErrorCode.INVALID_ARGUMENT, `cursor generation must be >= 1, got ${String(generation)}`);
  }
  return [
    SNAPSHOTS,
    SNAPSHOT_LAYOUT_VERSION,
    encodeKeyComponent(cluster),
    encodeKeyComponent(streamId),
    nameHash,
    `${pad19(generation)}/${snapshotId}${SNAPSHOT_SUFFIX}`,
  ].join("/");
}

/** Where an owner or retention key points. */
export interface CursorStreamKeyLocation {
  readonly cluster: string;
  readonly streamId: string;
}

/** Where a cursor root key points. */
export interface CursorRootKeyLocation extends CursorStreamKeyLocation {
  readonly cursorNameHash: string;
}

/** Where a snapshot object key points. */
export interface SnapshotObjectKeyLocation extends CursorRootKeyLocation {
  readonly cursorGeneration: number;
  readonly snapshotId: string;
}

function malformed(key: string, kind: string, reason: string, cause?: unknown): NereusError {
  return new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not ${kind} key: ${reason}`, { cause });
}

function decodeComponents(key: string, kind: string, cluster: string, streamId: string): CursorStreamKeyLocation {
  try {
    return { cluster: decodeKeyComponent(cluster), streamId: decodeKeyComponent(streamId) };
  } catch (cause) {
    throw malformed(key, kind, "bad cluster or stream component", cause);
  }
}

/** Splits `P/cursors/{streamId}/{tail...}`; `tail` has `tailLength` segments. */
function parseCursorStreamKey(
  key: string,
  kind: string,
  tailLength: number,
): { location: CursorStreamKeyLocation; tail: string[] } {
  const parts = key.split("/");
  if (parts.length !== 6 + tailLength) throw malformed(key, kind, `expected ${String(5 + tailLength)} segments`);
  const [empty, root, clusters, cluster, cursors, streamId] = parts as [string, string, string, string, string, string];
  if (empty !== "" || root !== "nereus" || clusters !== "clusters" || cursors !== CURSORS) {
    throw malformed(key, kind, "expected /nereus/clusters/{cluster}/cursors/{streamId}/...");
  }
  return { location: decodeComponents(key, kind, cluster, streamId), tail: parts.slice(6) };
}

/** Inverse of {@link cursorOwnerKey}; throws DECODE_ERROR for anything else. */
export function parseCursorOwnerKey(key: string): CursorStreamKeyLocation {
  const { location, tail } = parseCursorStreamKey(key, "a cursor owner", 1);
  if (tail[0] !== OWNER) throw malformed(key, "a cursor owner", `expected segment ${OWNER}`);
  return location;
}

/** Inverse of {@link cursorRetentionKey}; throws DECODE_ERROR for anything else. */
export function parseCursorRetentionKey(key: string): CursorStreamKeyLocation {
  const { location, tail } = parseCursorStreamKey(key, "a cursor retention", 1);
  if (tail[0] !== RETENTION) throw malformed(key, "a cursor retention", `expected segment ${RETENTION}`);
  return location;
}

/** Inverse of {@link cursorRootKey}; throws DECODE_ERROR for anything else. */
export function parseCursorRootKey(key: string): CursorRootKeyLocation {
  const { location, tail } = parseCursorStreamKey(key, "a cursor root", 2);
  const [roots, nameHash] = tail as [string, string];
  if (roots !== ROOTS) throw malformed(key, "a cursor root", `expected segment ${ROOTS}`);
  if (!isHex128(nameHash)) throw malformed(key, "a cursor root", "the name hash must be 32 lowercase hex digits");
  return { ...location, cursorNameHash: nameHash };
}

/** Inverse of {@link snapshotObjectKey}; throws DECODE_ERROR for anything else. */
export function parseSnapshotObjectKey(key: string): SnapshotObjectKeyLocation {
  const kind = "a cursor snapshot object";
  const parts = key.split("/");
  if (parts.length !== 7) throw malformed(key, kind, "expected 7 segments");
  const [snapshots, version, cluster, streamId, nameHash, generation, file] = parts as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  if (snapshots !== SNAPSHOTS || version !== SNAPSHOT_LAYOUT_VERSION) {
    throw malformed(key, kind, `expected ${SNAPSHOTS}/${SNAPSHOT_LAYOUT_VERSION}/...`);
  }
  const location = decodeComponents(key, kind, cluster, streamId);
  if (!isHex128(nameHash)) throw malformed(key, kind, "the name hash must be 32 lowercase hex digits");
  let cursorGeneration: number;
  try {
    cursorGeneration = parsePad19(generation);
  } catch (cause) {
    throw malformed(key, kind, "bad generation", cause);
  }
  if (cursorGeneration < 1) throw malformed(key, kind, "the generation must be >= 1");
  const snapshotId = file.endsWith(SNAPSHOT_SUFFIX) ? file.slice(0, -SNAPSHOT_SUFFIX.length) : "";
  if (!isHex128(snapshotId)) throw malformed(key, kind, "expected {32 lowercase hex digits}.ncs");
  return { ...location, cursorNameHash: nameHash, cursorGeneration, snapshotId };
}
