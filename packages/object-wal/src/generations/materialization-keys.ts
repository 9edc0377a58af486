// Metadata key layout of materialization work, under P = /nereus/clusters/{cluster} (docs/architecture.md §8.2):
//   P/materialization/v1/stream-registry/{shard02}/{sid}     StreamRegistration (work discovery)
//   P/streams/{sid}/materialization/v1/state                 StreamMaterialization (coverage, counter, task)
// The registry shard is the low 6 bits of sha256(streamId) (00..63), so discovery can scan in bounded slices.
import type { NereusError } from "@nereus/core";
import {
  clusterPrefix,
  decodeKeyComponent,
  encodeKeyComponent,
  notKeyOf,
  parseStreamScopedKey,
  sha256,
  streamPrefix,
} from "@nereus/core/internal";

const encoder = new TextEncoder();

/** Fixed path segments (durable; never rename). */
const MaterializationKeySegment = {
  ROOT: "materialization",
  VERSION: "v1",
  REGISTRY: "stream-registry",
  STATE: "state",
} as const;

/** Registry shard of a stream: low 6 bits of the first byte of sha256(streamId), two digits. */
export function registryShard(streamId: string): string {
  const digest = sha256(encoder.encode(streamId));
  return String((digest[0] ?? 0) & 0x3f).padStart(2, "0");
}

/** `P/materialization/v1/stream-registry/`: scan prefix of every registered stream. */
export function streamRegistryPrefix(cluster: string): string {
  return `${clusterPrefix(cluster)}/${MaterializationKeySegment.ROOT}/${MaterializationKeySegment.VERSION}/${MaterializationKeySegment.REGISTRY}/`;
}

/** `P/materialization/v1/stream-registry/{shard02}/{sid}`. */
export function streamRegistrationKey(cluster: string, streamId: string): string {
  return `${streamRegistryPrefix(cluster)}${registryShard(streamId)}/${encodeKeyComponent(streamId)}`;
}

/** `P/streams/{sid}/materialization/v1/state`. */
export function streamMaterializationKey(cluster: string, streamId: string): string {
  return `${streamPrefix(clusterPrefix(cluster), streamId)}${MaterializationKeySegment.ROOT}/${MaterializationKeySegment.VERSION}/${MaterializationKeySegment.STATE}`;
}

/** The stream id of a registration key (DECODE_ERROR for anything `streamRegistrationKey` cannot produce). */
export function parseStreamRegistrationKey(key: string): { readonly cluster: string; readonly streamId: string } {
  const parts = key.split("/");
  const fail = (reason: string, cause?: unknown): NereusError => notKeyOf(key, "a stream registration", reason, cause);
  if (
    parts.length !== 9 ||
    parts[0] !== "" ||
    parts[1] !== "nereus" ||
    parts[2] !== "clusters" ||
    parts[4] !== MaterializationKeySegment.ROOT ||
    parts[5] !== MaterializationKeySegment.VERSION ||
    parts[6] !== MaterializationKeySegment.REGISTRY
  ) {
    throw fail("expected /nereus/clusters/{cluster}/materialization/v1/stream-registry/{shard02}/{sid}");
  }
  let cluster: string;
  let streamId: string;
  try {
    cluster = decodeKeyComponent(parts[3] ?? "");
    streamId = decodeKeyComponent(parts[8] ?? "");
  } catch (cause) {
    throw fail("bad component", cause);
  }
  if (parts[7] !== registryShard(streamId)) throw fail("wrong shard");
  return { cluster, streamId };
}

/** The stream id of a materialization state key. */
export function parseStreamMaterializationKey(key: string): { readonly cluster: string; readonly streamId: string } {
  const scope = [MaterializationKeySegment.ROOT, MaterializationKeySegment.VERSION, MaterializationKeySegment.STATE];
  return parseStreamScopedKey(key, "a stream materialization", scope).location;
}
