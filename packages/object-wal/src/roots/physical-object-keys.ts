// Metadata key layout of physical-object roots and their protections (docs/architecture.md §8.2), under the cluster
// prefix P = /nereus/clusters/{cluster}:
//   P/physical-objects/v1/{shard03}/roots/{objectKeyHash}
//   P/physical-objects/v1/{shard03}/objects/{objectKeyHash}/protections/{typeId02}/{referenceId}
// `objectKeyHash` is the hex SHA-256 of the exact object key (store-relative, UTF-8); the shard is its first byte
// (000..255) so a later GC can scan roots in bounded, restartable slices. Parsers are strict: a key the builders
// could not have produced throws DECODE_ERROR.
import {
  PhysicalKeySpace,
  decodeKeyComponent,
  encodeKeyComponent,
  isPhysicalHash,
  notKeyOf,
  protectionTypeSlot,
  sha256Hex,
} from "@nereus/core/internal";

/** Fixed path segments (durable; never rename). */
const PhysicalObjectKeySegment = {
  ROOT: "physical-objects",
  VERSION: "v1",
  ROOTS: "roots",
  OBJECTS: "objects",
  PROTECTIONS: "protections",
} as const;

const TYPE_PATTERN = /^\d{2}$/;
const encoder = new TextEncoder();
const space = new PhysicalKeySpace(PhysicalObjectKeySegment.ROOT, "object key hash");

/** Hex SHA-256 of the UTF-8 bytes of `objectKey` (the identity every root and protection is keyed by). */
export function objectKeyHash(objectKey: string): string {
  return sha256Hex(encoder.encode(objectKey));
}

/** The shard (first hash byte, 3 decimal digits) of an object key hash. */
function objectShard(keyHash: string): string {
  return space.shard(keyHash);
}

/** `P/physical-objects/v1/{shard}/roots/{hash}`: the PhysicalObjectRoot of one object. */
export function physicalObjectRootKey(cluster: string, keyHash: string): string {
  return space.rootKey(cluster, keyHash);
}

/** `P/physical-objects/v1/{shard}/objects/{hash}/protections/`: scan prefix of an object's protections. */
export function objectProtectionsPrefix(cluster: string, keyHash: string): string {
  return `${space.targetPrefix(cluster, PhysicalObjectKeySegment.OBJECTS, keyHash)}${PhysicalObjectKeySegment.PROTECTIONS}/`;
}

/** `P/physical-objects/v1/{shard}/objects/{hash}/protections/{typeId02}/{referenceId}`: one ObjectProtection. */
export function objectProtectionKey(cluster: string, keyHash: string, typeId: number, referenceId: string): string {
  return `${objectProtectionsPrefix(cluster, keyHash)}${protectionTypeSlot(typeId)}/${encodeKeyComponent(referenceId)}`;
}

export interface PhysicalObjectRootKeyLocation {
  readonly cluster: string;
  readonly objectKeyHash: string;
}

export interface ObjectProtectionKeyLocation extends PhysicalObjectRootKeyLocation {
  readonly typeId: number;
  readonly referenceId: string;
}

/** Inverse of `physicalObjectRootKey`. */
export function parsePhysicalObjectRootKey(key: string): PhysicalObjectRootKeyLocation {
  const { cluster, hash } = space.parseRootKey(key, "a physical-object root");
  return { cluster, objectKeyHash: hash };
}

/** Inverse of `objectProtectionKey`. */
export function parseObjectProtectionKey(key: string): ObjectProtectionKeyLocation {
  const parts = space.split(key, "an object protection", 6);
  const [shard, objects, hash, protections, type, reference] = parts.rest;
  if (
    objects !== PhysicalObjectKeySegment.OBJECTS ||
    protections !== PhysicalObjectKeySegment.PROTECTIONS ||
    hash === undefined ||
    !isPhysicalHash(hash) ||
    shard !== objectShard(hash) ||
    type === undefined ||
    !TYPE_PATTERN.test(type) ||
    reference === undefined
  ) {
    throw notKeyOf(key, "an object protection", "expected {shard}/objects/{hash}/protections/{typeId02}/{referenceId}");
  }
  let referenceId: string;
  try {
    referenceId = decodeKeyComponent(reference);
  } catch (cause) {
    throw notKeyOf(key, "an object protection", "bad referenceId component", cause);
  }
  return { cluster: parts.cluster, objectKeyHash: hash, typeId: Number.parseInt(type, 10), referenceId };
}
