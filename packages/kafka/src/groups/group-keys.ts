// Metadata key layout of the Kafka group coordinator, under the cluster prefix P = /nereus/clusters/{cluster}:
//   P/kafka/groups/roots/{groupId}                          KafkaGroupRoot (one per group that ever committed)
//   P/kafka/groups/offsets/{groupId}/{topic}/{partition19}  KafkaCommittedOffset
// Group ids and topic names go through core's key-component codec (no "/" in a component) and partitions through
// pad19, so a group's offsets sort by topic, then numerically by partition. The adapter owns this subtree; core
// and the providers never read it. Group membership lives in memory; with shared ownership a group's last Stable
// membership is also stored, under P/kafka/groups/states/{groupId} (group-snapshot.ts).
import { ErrorCode, NereusError } from "@nereus/core";
import { clusterPrefix, decodeKeyComponent, encodeKeyComponent, pad19, parsePad19 } from "@nereus/core/internal";

const GROUPS = "kafka/groups";
const ROOTS = "roots";
const OFFSETS = "offsets";

/** `P/kafka/groups/roots/`: scan prefix of every group root. */
export function groupRootsPrefix(cluster: string): string {
  return `${clusterPrefix(cluster)}/${GROUPS}/${ROOTS}/`;
}

/** `P/kafka/groups/roots/{groupId}`. */
export function groupRootKey(cluster: string, groupId: string): string {
  return `${groupRootsPrefix(cluster)}${encodeKeyComponent(groupId)}`;
}

/** `P/kafka/groups/offsets/{groupId}/`: scan prefix of one group's committed offsets. */
export function groupOffsetsPrefix(cluster: string, groupId: string): string {
  return `${clusterPrefix(cluster)}/${GROUPS}/${OFFSETS}/${encodeKeyComponent(groupId)}/`;
}

/** `P/kafka/groups/offsets/{groupId}/{topic}/{partition19}`. */
export function committedOffsetKey(cluster: string, groupId: string, topic: string, partition: number): string {
  return `${groupOffsetsPrefix(cluster, groupId)}${encodeKeyComponent(topic)}/${pad19(partition)}`;
}

function malformed(key: string, what: string): NereusError {
  return new NereusError(ErrorCode.DECODE_ERROR, `${JSON.stringify(key)} is not a ${what} key`);
}

/** Where a group root key points. */
export interface GroupRootKeyLocation {
  readonly cluster: string;
  readonly groupId: string;
}

/** Where a committed-offset key points. */
export interface CommittedOffsetKeyLocation {
  readonly cluster: string;
  readonly groupId: string;
  readonly topic: string;
  readonly partition: number;
}

const KEY_PATTERN = /^\/nereus\/clusters\/([^/]+)\/kafka\/groups\/(roots|offsets)\/(.*)$/;

/** Inverse of {@link groupRootKey}; throws NereusError(DECODE_ERROR) for anything else. */
export function parseGroupRootKey(key: string): GroupRootKeyLocation {
  const match = KEY_PATTERN.exec(key);
  if (match?.[2] !== ROOTS || match[1] === undefined || match[3] === undefined || match[3].includes("/")) {
    throw malformed(key, "Kafka group root");
  }
  return { cluster: decodeKeyComponent(match[1]), groupId: decodeKeyComponent(match[3]) };
}

/** Inverse of {@link committedOffsetKey}; throws NereusError(DECODE_ERROR) for anything else. */
export function parseCommittedOffsetKey(key: string): CommittedOffsetKeyLocation {
  const match = KEY_PATTERN.exec(key);
  const parts = match?.[3]?.split("/");
  if (match?.[2] !== OFFSETS || match[1] === undefined || parts?.length !== 3)
    throw malformed(key, "Kafka committed-offset");
  const [groupId, topic, partition] = parts as [string, string, string];
  return {
    cluster: decodeKeyComponent(match[1]),
    groupId: decodeKeyComponent(groupId),
    topic: decodeKeyComponent(topic),
    partition: parsePad19(partition),
  };
}
