// GET /admin/v1/groups and /admin/v1/groups/{id}: the consumer groups the coordinator knows (stored or active), with
// the lag of their committed offsets (group-lag.ts) and, for one group, its members and every committed offset.
import type { GroupListing } from "@nereus/kafka";
import type { AdminContext } from "./admin-context.js";
import type { GroupDetail, GroupList, GroupMemberView, GroupOffsetView, GroupView } from "./admin-views.js";
import { type GroupLag, lagOf, readGroupLag } from "./group-lag.js";

function groupView(lag: GroupLag): GroupView {
  let total: number | null = null;
  if (lag.partitions !== undefined) {
    total = 0;
    for (const partition of lag.partitions) total += Math.max(0, lagOf(partition) ?? 0);
  }
  return {
    groupId: lag.group.groupId,
    state: lag.group.state,
    protocolType: lag.group.protocolType,
    members: lag.group.members,
    partitions: lag.committedPartitions,
    lag: total,
  };
}

/** Every group with its total lag (bounded, see group-lag.ts). */
export async function listGroups(context: AdminContext, signal?: AbortSignal): Promise<GroupList> {
  const groups = await context.coordinator.listGroupStates(signal === undefined ? {} : { signal });
  const reading = await readGroupLag(context, groups, signal === undefined ? {} : { signal });
  return { groups: reading.groups.map(groupView), omittedPartitions: reading.omittedPartitions };
}

function membersOf(context: AdminContext, groupId: string): GroupMemberView[] {
  const summary = context.coordinator.group(groupId)?.summary();
  if (summary === undefined) return [];
  return summary.members.map(({ memberId, groupInstanceId, clientId, clientHost }) => ({
    memberId,
    groupInstanceId,
    clientId,
    clientHost,
  }));
}

/** The group `groupId` with members and per-partition lag, or undefined when no such group is known. */
export async function describeGroup(
  context: AdminContext,
  groupId: string,
  signal?: AbortSignal,
): Promise<GroupDetail | undefined> {
  const listing: GroupListing | undefined = (
    await context.coordinator.listGroupStates(signal === undefined ? {} : { signal })
  ).find((group) => group.groupId === groupId);
  if (listing === undefined) return undefined;
  const reading = await readGroupLag(context, [listing], {
    maxPartitions: Number.MAX_SAFE_INTEGER,
    ...(signal === undefined ? {} : { signal }),
  });
  const lag = reading.groups[0]!;
  const offsets: GroupOffsetView[] = (lag.partitions ?? []).map((partition) => ({
    topic: partition.committed.topic,
    partition: partition.committed.partition,
    committedOffset: partition.committed.committedOffset,
    endOffset: partition.endOffset ?? null,
    lag: lagOf(partition) ?? null,
    metadata: partition.committed.metadata,
    committedAt: new Date(partition.committed.commitTimestampMs).toISOString(),
  }));
  return { ...groupView(lag), memberList: membersOf(context, groupId), offsets };
}
