// How `nereus admin` prints the admin API's answers for a terminal: tables for lists, a summary then tables for a
// described topic or group. `--json` prints the API's JSON instead (admin-command.ts).
import type { BrokerView, GroupDetail, GroupList, TopicDetail, TopicList } from "../admin/admin-views.js";
import { textTable } from "./text-table.js";

/** `nereus admin brokers`. */
export function renderBrokers(brokers: readonly BrokerView[]): string {
  return brokers
    .map((broker) =>
      [
        `broker ${String(broker.nodeId)} of cluster ${broker.cluster}: version ${broker.version}, up ${String(broker.uptimeSeconds)} s (since ${broker.startedAt})${broker.serving ? "" : ", not serving"}`,
        `storage: ${broker.storage.metadata} metadata, ${broker.storage.objects} objects, default profile ${broker.storage.defaultProfile}, materialization ${broker.storage.materialization}${broker.storage.writable ? "" : ", NOT WRITABLE"}`,
        "",
        textTable(
          [{ heading: "LISTENER" }, { heading: "BOUND" }, { heading: "ADVERTISED" }],
          broker.listeners.map((listener) => [
            [listener.name, listener.listener, listener.protocol].filter((part) => part !== undefined).join(" "),
            `${listener.host}:${String(listener.port)}`,
            listener.advertised,
          ]),
        ),
      ].join("\n"),
    )
    .join("\n\n");
}

/** `nereus admin topics`. */
export function renderTopics(list: TopicList): string {
  const table = textTable(
    [
      { heading: "TOPIC" },
      { heading: "PARTITIONS", numeric: true },
      { heading: "PROFILE" },
      { heading: "RECORDS", numeric: true },
      { heading: "BYTES", numeric: true },
    ],
    list.topics.map((topic) => [topic.name, topic.partitionCount, topic.profile, topic.records, topic.appendedBytes]),
  );
  const more = list.next === null ? "" : `\n(more topics follow: the API pages them, ?after=${list.next})`;
  return list.topics.length === 0 ? "no topics" : `${table}${more}`;
}

/** `nereus admin topics --describe NAME`. */
export function renderTopic(topic: TopicDetail): string {
  const summary = [
    `topic ${topic.name} (id ${topic.topicId}): ${String(topic.partitionCount)} partition(s), profile ${topic.profile}`,
    `records ${String(topic.records)}, bytes appended ${String(topic.appendedBytes)}`,
    Object.keys(topic.configs).length === 0
      ? "configs: (defaults)"
      : `configs: ${Object.entries(topic.configs)
          .map(([name, value]) => `${name}=${value}`)
          .join(", ")}`,
  ];
  const partitions = textTable(
    [
      { heading: "PARTITION", numeric: true },
      { heading: "STATE" },
      { heading: "START", numeric: true },
      { heading: "END", numeric: true },
      { heading: "RECORDS", numeric: true },
      { heading: "BYTES", numeric: true },
      { heading: "COMMITS", numeric: true },
      { heading: "STREAM" },
    ],
    topic.partitions.map((partition) => [
      partition.partition,
      partition.state,
      partition.startOffset,
      partition.endOffset,
      partition.records,
      partition.appendedBytes,
      partition.storage?.commits,
      partition.streamId,
    ]),
  );
  const storage = textTable(
    [
      { heading: "PARTITION", numeric: true },
      { heading: "WAL RANGES", numeric: true },
      { heading: "WAL OBJECTS", numeric: true },
      { heading: "WAL BYTES", numeric: true },
      { heading: "GENERATIONS", numeric: true },
      { heading: "LEVEL", numeric: true },
      { heading: "GEN BYTES", numeric: true },
      { heading: "MATERIALIZED", numeric: true },
      { heading: "BACKLOG BYTES", numeric: true },
      { heading: "WRITER" },
    ],
    topic.partitions.map((partition) => {
      const details = partition.storage;
      const materialization = details?.materialization;
      return [
        partition.partition,
        details?.wal.ranges,
        details?.wal.objects,
        details?.wal.bytes,
        details?.generations.committed,
        details?.generations.highestLevel,
        details?.generations.bytes,
        materialization === null ? "n/a" : materialization?.materializedEnd,
        materialization === null ? "n/a" : materialization?.backlogBytes,
        details?.writer === null || details?.writer === undefined
          ? undefined
          : `${details.writer.writerId}#${String(details.writer.epoch)}`,
      ];
    }),
  );
  const truncated = topic.partitions.some((partition) => partition.storage?.truncated === true)
    ? "\n(some partitions have more index entries than one describe reads: their storage counts cover the first ones)"
    : "";
  return [...summary, "", partitions, "", storage].join("\n") + truncated;
}

/** `nereus admin groups`. */
export function renderGroups(list: GroupList): string {
  if (list.groups.length === 0) return "no consumer groups";
  const table = textTable(
    [
      { heading: "GROUP" },
      { heading: "STATE" },
      { heading: "PROTOCOL" },
      { heading: "MEMBERS", numeric: true },
      { heading: "PARTITIONS", numeric: true },
      { heading: "LAG", numeric: true },
    ],
    list.groups.map((group) => [
      group.groupId,
      group.state,
      group.protocolType === "" ? undefined : group.protocolType,
      group.members,
      group.partitions,
      group.lag,
    ]),
  );
  const omitted =
    list.omittedPartitions === 0
      ? ""
      : `\n(lag not computed for ${String(list.omittedPartitions)} partition(s): describe those groups one by one)`;
  return `${table}${omitted}`;
}

/** `nereus admin groups --describe ID`. */
export function renderGroup(group: GroupDetail): string {
  const summary = `group ${group.groupId}: ${group.state}, ${String(group.members)} member(s), lag ${String(group.lag ?? "-")}`;
  const offsets =
    group.offsets.length === 0
      ? "no committed offsets"
      : textTable(
          [
            { heading: "TOPIC" },
            { heading: "PARTITION", numeric: true },
            { heading: "COMMITTED", numeric: true },
            { heading: "END", numeric: true },
            { heading: "LAG", numeric: true },
            { heading: "COMMITTED AT" },
          ],
          group.offsets.map((offset) => [
            offset.topic,
            offset.partition,
            offset.committedOffset,
            offset.endOffset,
            offset.lag,
            offset.committedAt,
          ]),
        );
  const members =
    group.memberList.length === 0
      ? "no members"
      : textTable(
          [{ heading: "MEMBER" }, { heading: "CLIENT ID" }, { heading: "HOST" }],
          group.memberList.map((member) => [member.memberId, member.clientId, member.clientHost]),
        );
  return [summary, "", offsets, "", members].join("\n");
}
