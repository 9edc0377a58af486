// A consumer group's membership at its last Stable generation, stored when several brokers share the groups so that
// a coordinator that takes a group over continues that generation: members keep their ids, assignments and
// generation, so their heartbeats and offset commits go on without a rebalance. Key (under P = /nereus/clusters/
// {cluster}): P/kafka/groups/states/{groupId}. Record "KafkaGroupState", schema 1; payload:
//   generationId i32, protocolType string, protocolName string, leaderId string, memberCount u32, then per member:
//   memberId string, groupInstanceId (boolean present, string), clientId string, clientHost string,
//   sessionTimeoutMs i32, rebalanceTimeoutMs i32, protocolCount u32 × (name string, metadata bytes), assignment bytes.
import { ByteReader, ByteWriter } from "@nereus/core";
import {
  RecordChecks,
  clusterPrefix,
  decodeRecordEnvelope,
  encodeKeyComponent,
  encodeRecordEnvelope,
} from "@nereus/core/internal";
import type { MemberProtocol } from "./group-member.js";

const RECORD_TYPE = "KafkaGroupState";
const SCHEMA_VERSION = 1;

/** One member as the snapshot keeps it. */
interface MemberSnapshot {
  readonly memberId: string;
  readonly groupInstanceId: string | null;
  readonly clientId: string;
  readonly clientHost: string;
  readonly sessionTimeoutMs: number;
  readonly rebalanceTimeoutMs: number;
  readonly protocols: readonly MemberProtocol[];
  readonly assignment: Uint8Array;
}

/** A Stable group: its generation, chosen protocol, leader and members (in join order). */
export interface GroupSnapshot {
  readonly generationId: number;
  readonly protocolType: string;
  readonly protocolName: string;
  readonly leaderId: string;
  readonly members: readonly MemberSnapshot[];
}

/** `P/kafka/groups/states/{groupId}`. */
export function groupStateKey(cluster: string, groupId: string): string {
  return `${clusterPrefix(cluster)}/kafka/groups/states/${encodeKeyComponent(groupId)}`;
}

/** The stored bytes of `snapshot`. */
export function encodeGroupSnapshot(snapshot: GroupSnapshot): Uint8Array {
  const writer = new ByteWriter(256)
    .writeI32(snapshot.generationId)
    .writeString(snapshot.protocolType)
    .writeString(snapshot.protocolName)
    .writeString(snapshot.leaderId)
    .writeU32(snapshot.members.length);
  for (const member of snapshot.members) {
    writer
      .writeString(member.memberId)
      .writeBoolean(member.groupInstanceId !== null)
      .writeString(member.groupInstanceId ?? "")
      .writeString(member.clientId)
      .writeString(member.clientHost)
      .writeI32(member.sessionTimeoutMs)
      .writeI32(member.rebalanceTimeoutMs)
      .writeU32(member.protocols.length);
    for (const protocol of member.protocols)
      writer.writeString(protocol.name).writeLengthPrefixedBytes(protocol.metadata);
    writer.writeLengthPrefixedBytes(member.assignment);
  }
  return encodeRecordEnvelope(
    { recordType: RECORD_TYPE, schemaVersion: SCHEMA_VERSION, minReaderSchemaVersion: SCHEMA_VERSION },
    writer.finish(),
  );
}

/** Decodes the bytes stored at `key`. Throws a NereusError for bytes that are not a group snapshot. */
export function decodeGroupSnapshot(bytes: Uint8Array, key: string): GroupSnapshot {
  const checks = new RecordChecks(RECORD_TYPE, key);
  try {
    const { payload } = decodeRecordEnvelope(bytes, RECORD_TYPE, SCHEMA_VERSION, `${RECORD_TYPE} ${checks.where}`);
    const reader = new ByteReader(payload, `${RECORD_TYPE} payload`);
    const generationId = reader.readI32("generationId");
    const protocolType = reader.readString("protocolType");
    const protocolName = reader.readString("protocolName");
    const leaderId = reader.readString("leaderId");
    const members: MemberSnapshot[] = [];
    for (let count = reader.readU32("memberCount"); count > 0; count -= 1) {
      const memberId = reader.readString("memberId");
      const hasInstanceId = reader.readBoolean("hasGroupInstanceId");
      const instanceId = reader.readString("groupInstanceId");
      const clientId = reader.readString("clientId");
      const clientHost = reader.readString("clientHost");
      const sessionTimeoutMs = reader.readI32("sessionTimeoutMs");
      const rebalanceTimeoutMs = reader.readI32("rebalanceTimeoutMs");
      const protocols: MemberProtocol[] = [];
      for (let protocolCount = reader.readU32("protocolCount"); protocolCount > 0; protocolCount -= 1)
        protocols.push({ name: reader.readString("protocol"), metadata: reader.readLengthPrefixedBytes("metadata") });
      const assignment = reader.readLengthPrefixedBytes("assignment");
      members.push({
        memberId,
        groupInstanceId: hasInstanceId ? instanceId : null,
        clientId,
        clientHost,
        sessionTimeoutMs,
        rebalanceTimeoutMs,
        protocols,
        assignment,
      });
    }
    reader.expectEnd();
    checks.require(generationId > 0, "generationId must be positive");
    checks.require(members.length > 0, "a stable group has members");
    checks.require(
      members.some((member) => member.memberId === leaderId),
      "the leader is not a member",
    );
    return { generationId, protocolType, protocolName, leaderId, members };
  } catch (error) {
    return checks.wrap(error);
  }
}
