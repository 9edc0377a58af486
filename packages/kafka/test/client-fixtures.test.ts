// The frozen real-client captures decode to exactly what the clients meant (test/fixtures/<client>-<scenario>.hex,
// produced by scripts/capture-client-fixtures.ts; real-clients.test.ts keeps them honest against the live clients).
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { decodeRequest } from "../src/protocol/decode-request.js";
import { decodeRecordBatch } from "../src/protocol/records/decode-record-batch.js";
import { splitRecordBatches } from "../src/protocol/records/split-record-batches.js";
import { validateRecordBatch } from "../src/protocol/records/validate-record-batch.js";
import { loadClientFixture } from "./client-fixtures.js";
import { CAPTURE_PRODUCER_ID, GZIP_VALUE } from "./client-scenarios.js";

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The records blob of the only partition of a decoded Produce request. */
function producedRecords(request: unknown): Uint8Array {
  const body = (request as { body: { topicData: Array<{ partitionData: Array<{ records: Uint8Array | null }> }> } })
    .body;
  const records = body.topicData[0]?.partitionData[0]?.records;
  expect(records).toBeInstanceOf(Uint8Array);
  return records as Uint8Array;
}

/** The decoded frames of a fixture whose label is `label` (librdkafka's frame count varies between runs). */
function decodeLabelled(name: string, label: string): unknown[] {
  return loadClientFixture(name)
    .frames.filter((entry) => entry.label === label)
    .map(({ frame }) => {
      const request = decodeRequest(frame);
      expect(request.kind).toBe("request");
      return request;
    });
}

function decodeAll(name: string): unknown[] {
  return loadClientFixture(name).frames.map(({ frame }) => {
    const request = decodeRequest(frame);
    expect(request.kind).toBe("request");
    return request.kind === "request"
      ? { apiKey: request.apiKey, apiVersion: request.apiVersion, header: request.header, body: request.body }
      : request;
  });
}

describe("kcat 1.7.1 / librdkafka 2.0.2 captures", () => {
  it("metadata: ApiVersions v3 (flexible, header v2), then Metadata v4 for brokers only and for all topics", () => {
    expect(loadClientFixture("kcat-metadata").client).toBe("kcat 1.7.1 / librdkafka 2.0.2");
    expect(decodeAll("kcat-metadata")).toEqual([
      {
        apiKey: 18,
        apiVersion: 3,
        header: { apiKey: 18, apiVersion: 3, correlationId: 1, clientId: "rdkafka" },
        body: { clientSoftwareName: "librdkafka", clientSoftwareVersion: "2.0.2" },
      },
      {
        apiKey: 3,
        apiVersion: 4,
        header: { apiKey: 3, apiVersion: 4, correlationId: 2, clientId: "rdkafka" },
        body: {
          topics: [],
          allowAutoTopicCreation: false,
          includeClusterAuthorizedOperations: false,
          includeTopicAuthorizedOperations: false,
        },
      },
      {
        apiKey: 3,
        apiVersion: 4,
        header: { apiKey: 3, apiVersion: 4, correlationId: 3, clientId: "rdkafka" },
        body: {
          topics: null,
          allowAutoTopicCreation: true,
          includeClusterAuthorizedOperations: false,
          includeTopicAuthorizedOperations: false,
        },
      },
    ]);
  });
});

describe("kcat 1.7.1 / librdkafka 2.0.2 produce without Fetch advertised", () => {
  it("falls back to a magic 0 message set, which validation rejects as unsupported-magic", () => {
    const [produce] = decodeLabelled("kcat-produce-without-fetch", "Produce.v7");
    expect(produce).toMatchObject({
      apiKey: 0,
      apiVersion: 7,
      body: { transactionalId: null, acks: -1, timeoutMs: 30_000 },
    });
    const { batches, trailingBytes } = splitRecordBatches(producedRecords(produce));
    expect([batches.length, trailingBytes]).toEqual([1, 0]);
    expect(validateRecordBatch(batches[0] as Uint8Array, { producer: true })).toMatchObject({
      ok: false,
      reason: "unsupported-magic",
    });
  });
});

describe("kcat 1.7.1 / librdkafka 2.0.2 produce and consume", () => {
  it("produce: Produce v7 with one record batch (magic 2) that validates and decodes to the sent record", () => {
    const [produce] = decodeLabelled("kcat-produce", "Produce.v7");
    expect(produce).toMatchObject({
      body: {
        transactionalId: null,
        acks: -1,
        timeoutMs: 30_000,
        topicData: [{ name: "capture", partitionData: [{ index: 0 }] }],
      },
    });
    const records = producedRecords(produce);
    expect(validateRecordBatch(records, { producer: true })).toMatchObject({ ok: true });
    const batch = decodeRecordBatch(records);
    expect(batch.header).toMatchObject({
      baseOffset: 0,
      compression: 0,
      producerId: -1n,
      producerEpoch: -1,
      baseSequence: -1,
      recordCount: 1,
    });
    expect(batch.records.map(({ key, value, headers }) => ({ key, value, headers }))).toEqual([
      { key: utf8("k1"), value: utf8("v1"), headers: [{ key: "h", value: utf8("x") }] },
    ]);
  });

  it("produce-gzip: a gzip batch (attributes codec 1) that validates without inflating and decodes with a decompressor", () => {
    const [produce] = decodeLabelled("kcat-produce-gzip", "Produce.v7");
    const records = producedRecords(produce);
    expect(validateRecordBatch(records, { producer: true })).toMatchObject({
      ok: true,
      header: { compression: 1, recordCount: 2, lastOffsetDelta: 1 },
    });
    const batch = decodeRecordBatch(records, { decompress: (_codec, data) => new Uint8Array(gunzipSync(data)) });
    expect(batch.records.map(({ offset, key, value }) => ({ offset, key, value }))).toEqual([
      { offset: 0, key: utf8("k1"), value: utf8(GZIP_VALUE) },
      { offset: 1, key: utf8("k2"), value: utf8(GZIP_VALUE) },
    ]);
  });

  it("consume: ListOffsets v2 for the earliest offset, then Fetch v11 from offset 0, read_committed", () => {
    const [listOffsets] = decodeLabelled("kcat-consume", "ListOffsets.v2");
    expect(listOffsets).toMatchObject({
      body: {
        replicaId: -1,
        isolationLevel: 1,
        topics: [{ name: "capture", partitions: [{ partitionIndex: 0, timestamp: -2 }] }],
      },
    });
    const [fetch] = decodeLabelled("kcat-consume", "Fetch.v11");
    expect(fetch).toMatchObject({
      body: {
        replicaId: -1,
        maxWaitMs: 500,
        minBytes: 1,
        isolationLevel: 1,
        sessionId: 0,
        sessionEpoch: -1,
        topics: [
          {
            topic: "capture",
            partitions: [{ partition: 0, fetchOffset: 0, currentLeaderEpoch: -1, logStartOffset: -1 }],
          },
        ],
        forgottenTopicsData: [],
        rackId: "",
      },
    });
  });
});

describe("kcat 1.7.1 / librdkafka 2.0.2 balanced consumer (-G)", () => {
  const name = "kcat-consumer-group";

  it("joins twice (MEMBER_ID_REQUIRED dance) with JoinGroup v5, range and roundrobin protocols", () => {
    const [first, second] = decodeLabelled(name, "JoinGroup.v5");
    const common = {
      groupId: "capture-group",
      sessionTimeoutMs: 45_000,
      rebalanceTimeoutMs: 300_000,
      groupInstanceId: null,
      protocolType: "consumer",
    };
    expect(first).toMatchObject({ body: { ...common, memberId: "" } });
    expect(second).toMatchObject({ body: { ...common, memberId: "capture-member-1" } });
    expect(
      (first as { body: { protocols: Array<{ name: string }> } }).body.protocols.map((protocol) => protocol.name),
    ).toEqual(["range", "roundrobin"]);
  });

  it("syncs as leader (SyncGroup v3), then reads offsets with the flexible OffsetFetch v7 (requireStable)", () => {
    const [sync] = decodeLabelled(name, "SyncGroup.v3");
    expect(sync).toMatchObject({
      body: {
        groupId: "capture-group",
        generationId: 1,
        memberId: "capture-member-1",
        assignments: [{ memberId: "capture-member-1" }],
      },
    });
    const [offsetFetch] = decodeLabelled(name, "OffsetFetch.v7");
    expect(offsetFetch).toMatchObject({
      header: { clientId: "rdkafka" },
      body: {
        groupId: "capture-group",
        topics: [{ name: "capture", partitionIndexes: [0] }],
        groups: [],
        requireStable: true,
      },
    });
  });

  it("commits offset 1 with OffsetCommit v7 and leaves with LeaveGroup v1", () => {
    const commits = decodeLabelled(name, "OffsetCommit.v7");
    expect(commits.at(-1)).toMatchObject({
      body: {
        groupId: "capture-group",
        generationIdOrMemberEpoch: 1,
        memberId: "capture-member-1",
        groupInstanceId: null,
        topics: [
          {
            name: "capture",
            partitions: [{ partitionIndex: 0, committedOffset: 1, committedLeaderEpoch: -1, committedMetadata: "" }],
          },
        ],
      },
    });
    expect(decodeLabelled(name, "LeaveGroup.v1")).toMatchObject([
      { body: { groupId: "capture-group", memberId: "capture-member-1", members: [] } },
    ]);
  });
});

describe("idempotent producers", () => {
  it("kcat: flexible InitProducerId v4 (header v2), then a batch stamped with the allocated id beyond 2^53", () => {
    expect(decodeLabelled("kcat-idempotent-produce", "InitProducerId.v4")).toMatchObject([
      {
        header: { clientId: "rdkafka" },
        body: { transactionalId: null, transactionTimeoutMs: -1, producerId: -1n, producerEpoch: -1 },
      },
    ]);
    const [produce] = decodeLabelled("kcat-idempotent-produce", "Produce.v7");
    expect(validateRecordBatch(producedRecords(produce), { producer: true })).toMatchObject({
      ok: true,
      header: { producerId: CAPTURE_PRODUCER_ID, producerEpoch: 0, baseSequence: 0, recordCount: 1 },
    });
  });

  it("kafkajs: InitProducerId v1, then a batch stamped with the allocated id", () => {
    expect(decodeLabelled("kafkajs-idempotent-produce", "InitProducerId.v1")).toMatchObject([
      { body: { transactionalId: null, transactionTimeoutMs: 60_000 } },
    ]);
    const [produce] = decodeLabelled("kafkajs-idempotent-produce", "Produce.v7");
    expect(validateRecordBatch(producedRecords(produce), { producer: true })).toMatchObject({
      ok: true,
      header: { producerId: CAPTURE_PRODUCER_ID, producerEpoch: 0, baseSequence: 0 },
    });
  });
});

describe("kafkajs 2.2.4 captures", () => {
  it("admin: CreateTopics v3, DescribeConfigs v2, ListGroups v2, DescribeGroups v2, DeleteTopics v1", () => {
    const name = "kafkajs-admin";
    expect(decodeLabelled(name, "CreateTopics.v3")).toMatchObject([
      {
        body: {
          topics: [
            {
              name: "orders",
              numPartitions: 3,
              replicationFactor: 1,
              assignments: [],
              configs: [{ name: "cleanup.policy", value: "compact" }],
            },
          ],
          timeoutMs: 5000,
          validateOnly: false,
        },
      },
    ]);
    expect(decodeLabelled(name, "DescribeConfigs.v2")).toMatchObject([
      {
        body: {
          resources: [{ resourceType: 2, resourceName: "orders", configurationKeys: ["cleanup.policy"] }],
          includeSynonyms: false,
        },
      },
    ]);
    expect(decodeLabelled(name, "ListGroups.v2")).toMatchObject([{ body: { statesFilter: [], typesFilter: [] } }]);
    expect(decodeLabelled(name, "DescribeGroups.v2")).toMatchObject([
      { body: { groups: ["capture-group"], includeAuthorizedOperations: false } },
    ]);
    expect(decodeLabelled(name, "DeleteTopics.v1")).toMatchObject([
      { body: { topicNames: ["orders"], topics: [], timeoutMs: 5000 } },
    ]);
  });

  it("consumer-group: FindCoordinator v2, JoinGroup v5 twice, SyncGroup v3, OffsetFetch v4, OffsetCommit v5, LeaveGroup v3", () => {
    const name = "kafkajs-consumer-group";
    expect(decodeLabelled(name, "FindCoordinator.v2")).toMatchObject([{ body: { key: "capture-group", keyType: 0 } }]);
    const [first, second] = decodeLabelled(name, "JoinGroup.v5");
    const common = {
      groupId: "capture-group",
      sessionTimeoutMs: 30_000,
      rebalanceTimeoutMs: 60_000,
      protocolType: "consumer",
      protocols: [{ name: "RoundRobinAssigner" }],
    };
    expect(first).toMatchObject({ body: { ...common, memberId: "" } });
    expect(second).toMatchObject({ body: { ...common, memberId: "capture-member-1" } });
    expect(decodeLabelled(name, "SyncGroup.v3")).toMatchObject([
      { body: { generationId: 1, assignments: [{ memberId: "capture-member-1" }] } },
    ]);
    expect(decodeLabelled(name, "OffsetFetch.v4")).toMatchObject([
      { body: { groupId: "capture-group", topics: [{ name: "capture", partitionIndexes: [0] }] } },
    ]);
    expect(decodeLabelled(name, "OffsetCommit.v5").at(-1)).toMatchObject({
      body: {
        groupId: "capture-group",
        generationIdOrMemberEpoch: 1,
        memberId: "capture-member-1",
        topics: [{ name: "capture", partitions: [{ partitionIndex: 0, committedOffset: 1 }] }],
      },
    });
    expect(decodeLabelled(name, "LeaveGroup.v3")).toMatchObject([
      {
        body: {
          groupId: "capture-group",
          members: [{ memberId: "capture-member-1", groupInstanceId: null, reason: null }],
        },
      },
    ]);
  });

  it("offsets: ListOffsets v3 for latest (-1) and earliest (-2), read_committed", () => {
    const [latest, earliest] = decodeLabelled("kafkajs-offsets", "ListOffsets.v3");
    for (const [request, timestamp] of [
      [latest, -1],
      [earliest, -2],
    ] as const) {
      expect(request).toMatchObject({
        body: {
          replicaId: -1,
          isolationLevel: 1,
          topics: [{ name: "capture", partitions: [{ partitionIndex: 0, timestamp }] }],
        },
      });
    }
  });

  it("produce: Produce v7 with one magic 2 batch that validates and decodes to the sent record", () => {
    const [, , produce] = decodeAll("kafkajs-produce");
    expect(produce).toMatchObject({
      apiKey: 0,
      apiVersion: 7,
      header: { correlationId: 2, clientId: "nereus-capture" },
      body: {
        transactionalId: null,
        acks: -1,
        timeoutMs: 30_000,
        topicData: [{ name: "capture", partitionData: [{ index: 0 }] }],
      },
    });
    const records = producedRecords(produce);
    expect(validateRecordBatch(records, { producer: true })).toMatchObject({ ok: true });
    const batch = decodeRecordBatch(records);
    expect(batch.header).toMatchObject({
      baseOffset: 0,
      partitionLeaderEpoch: 0,
      compression: 0,
      producerId: -1n,
      producerEpoch: 0,
      baseSequence: 0,
      recordCount: 1,
    });
    expect(batch.records).toEqual([
      {
        attributes: 0,
        timestampDelta: 0,
        offsetDelta: 0,
        offset: 0,
        timestamp: 1_700_000_000_000,
        key: utf8("k1"),
        value: utf8("v1"),
        headers: [{ key: "h", value: utf8("x") }],
      },
    ]);
  });

  it("metadata: ApiVersions v2, then Metadata v6 for the requested topic (auto-create off)", () => {
    expect(loadClientFixture("kafkajs-metadata").client).toBe("kafkajs 2.2.4");
    const metadataBody = {
      topics: [{ topicId: "00000000-0000-0000-0000-000000000000", name: "capture" }],
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    };
    expect(decodeAll("kafkajs-metadata")).toEqual([
      {
        apiKey: 18,
        apiVersion: 2,
        header: { apiKey: 18, apiVersion: 2, correlationId: 0, clientId: "nereus-capture" },
        body: { clientSoftwareName: "", clientSoftwareVersion: "" },
      },
      {
        apiKey: 3,
        apiVersion: 6,
        header: { apiKey: 3, apiVersion: 6, correlationId: 1, clientId: "nereus-capture" },
        body: metadataBody,
      },
      {
        apiKey: 3,
        apiVersion: 6,
        header: { apiKey: 3, apiVersion: 6, correlationId: 2, clientId: "nereus-capture" },
        body: metadataBody,
      },
    ]);
  });
});
