// Real-client capture scenarios shared by test/real-clients.test.ts (runs them live) and
// scripts/capture-client-fixtures.ts (freezes what the clients sent into test/fixtures/*.hex). Each scenario
// points one real client (kcat = librdkafka, or kafkajs) at a recording broker that answers with this package's
// encoders, and returns what the client reported, so a test can check the client understood the answers.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { apiVersionsResponseBody } from "../src/protocol/advertised-api-versions.js";
import { ZERO_UUID } from "../src/protocol/primitives/uuid.js";
import { encodeRecordBatch } from "../src/protocol/records/encode-record-batch.js";
import type { RequestBody, ResponseBody } from "../src/protocol/supported-apis.js";
import { type RecordingBroker, type ResponseScript, startRecordingBroker } from "./recording-broker.js";

/** Which client and version produced a capture. */
export interface ClientIdentity {
  readonly client: "kcat" | "kafkajs";
  /** "kcat 1.7.1 / librdkafka 2.0.2" or "kafkajs 2.2.4". */
  readonly version: string;
}

/** One capture scenario. */
export interface ClientScenario {
  /** Fixture base name: test/fixtures/<client>-<name>.hex */
  readonly name: string;
  readonly client: ClientIdentity["client"];
  readonly script: ResponseScript;
  /**
   * How many leading frames are byte-for-byte reproducible; all of them when omitted. librdkafka's later frames
   * depend on timing (how often it refreshes metadata, how many fetches it sends) and carry wall-clock
   * timestamps, so kcat scenarios pin only the ApiVersions request.
   */
  readonly reproducibleFrames?: number;
  /** Drives the client against the broker; resolves with what the client printed or returned. */
  run(broker: RecordingBroker): Promise<unknown>;
}

export const KCAT = "/usr/bin/kcat";
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
export const CAPTURE_TOPIC = "capture";
export const CAPTURE_CLIENT_ID = "nereus-capture";

/** The installed kcat and kafkajs versions, as written in fixture headers. */
export async function clientIdentity(client: ClientIdentity["client"]): Promise<ClientIdentity> {
  if (client === "kafkajs") {
    const require = createRequire(import.meta.url);
    return { client, version: `kafkajs ${(require("kafkajs/package.json") as { version: string }).version}` };
  }
  const { stdout } = await runProcess(KCAT, ["-V"]);
  const kcat = /Version (\S+)/.exec(stdout)?.[1] ?? "unknown";
  const librdkafka = /librdkafka (\S+)/.exec(stdout)?.[1] ?? "unknown";
  return { client, version: `kcat ${kcat} / librdkafka ${librdkafka}` };
}

/** Runs a process to completion (killed after `timeoutMs`), collecting its output. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { input?: string; timeoutMs?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(command, args, {
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 20_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin?.on("error", () => undefined);
    child.stdin?.end(options.input);
  });
}

/** A Metadata response naming this broker as node 1 and leader of partition 0 of each topic. */
export function metadataAnswer(topics: readonly string[], port: number): ResponseBody<3> {
  return {
    throttleTimeMs: 0,
    brokers: [{ nodeId: 1, host: "127.0.0.1", port, rack: null }],
    clusterId: "nereus-capture-cluster",
    controllerId: 1,
    topics: topics.map((name) => ({
      errorCode: 0,
      name,
      topicId: ZERO_UUID,
      isInternal: false,
      partitions: [
        {
          errorCode: 0,
          partitionIndex: 0,
          leaderId: 1,
          leaderEpoch: 0,
          replicaNodes: [1],
          isrNodes: [1],
          offlineReplicas: [],
        },
      ],
      topicAuthorizedOperations: -2147483648,
    })),
    clusterAuthorizedOperations: -2147483648,
  };
}

/** A Produce response accepting every partition at base offset 0. */
export function produceAnswer(request: RequestBody<0>): ResponseBody<0> {
  return {
    responses: request.topicData.map((topic) => ({
      name: topic.name,
      partitionResponses: topic.partitionData.map((partition) => ({
        index: partition.index,
        errorCode: 0,
        baseOffset: 0,
        logAppendTimeMs: -1,
        logStartOffset: 0,
        recordErrors: [],
        errorMessage: null,
        currentLeader: { leaderId: -1, leaderEpoch: -1 },
      })),
    })),
    throttleTimeMs: 0,
    nodeEndpoints: [],
  };
}

/** The batch the consume scenarios serve at offset 0: one record k1=v1 with header h=x. */
export const SERVED_BATCH = encodeRecordBatch({
  baseTimestamp: 1_700_000_000_000,
  partitionLeaderEpoch: 0,
  records: [{ key: utf8("k1"), value: utf8("v1"), headers: [{ key: "h", value: utf8("x") }] }],
});

/** A Fetch response serving {@link SERVED_BATCH} at offset 0 and nothing after it (high watermark 1). */
export function fetchAnswer(request: RequestBody<1>): ResponseBody<1> {
  return {
    throttleTimeMs: 0,
    errorCode: 0,
    sessionId: 0,
    responses: request.topics.map((topic) => ({
      topic: topic.topic,
      topicId: topic.topicId,
      partitions: topic.partitions.map((partition) => ({
        partitionIndex: partition.partition,
        errorCode: 0,
        highWatermark: 1,
        lastStableOffset: 1,
        logStartOffset: 0,
        divergingEpoch: { epoch: -1, endOffset: -1 },
        currentLeader: { leaderId: -1, leaderEpoch: -1 },
        snapshotId: { endOffset: -1, epoch: -1 },
        abortedTransactions: [],
        preferredReadReplica: -1,
        records: partition.fetchOffset === 0 ? SERVED_BATCH : new Uint8Array(0),
      })),
    })),
    nodeEndpoints: [],
  };
}

/** A ListOffsets response for a partition holding offsets [0, 1). */
export function listOffsetsAnswer(request: RequestBody<2>): ResponseBody<2> {
  return {
    throttleTimeMs: 0,
    topics: request.topics.map((topic) => ({
      name: topic.name,
      partitions: topic.partitions.map((partition) => ({
        partitionIndex: partition.partitionIndex,
        errorCode: 0,
        oldStyleOffsets: [],
        timestamp: -1,
        offset: partition.timestamp === -2 ? 0 : 1,
        leaderEpoch: 0,
      })),
    })),
  };
}

const baseScript: ResponseScript = {
  18: () => apiVersionsResponseBody(),
  3: (request, { port }) =>
    metadataAnswer(request.body.topics?.map((topic) => topic.name ?? "") ?? [CAPTURE_TOPIC], port),
  0: (request) => produceAnswer(request.body),
  1: (request) => fetchAnswer(request.body),
  2: (request) => listOffsetsAnswer(request.body),
};

/** A compressible value for the gzip scenario. */
export const GZIP_VALUE = "nereus ".repeat(40);

/** The group the consumer-group scenarios join. */
export const CAPTURE_GROUP = "capture-group";
/** The member id the scripted coordinator hands out. */
export const CAPTURE_MEMBER = "capture-member-1";

/**
 * A scripted single-member classic group coordinator on top of {@link baseScript}: FindCoordinator points at this
 * broker; the first JoinGroup without a member id gets MEMBER_ID_REQUIRED (79) and an id, the second makes the
 * member leader of generation 1; SyncGroup hands the leader back its own assignment; nothing is committed yet
 * (offset -1); commits, heartbeats and leaving succeed.
 */
export function groupScript(): ResponseScript {
  let assignment = new Uint8Array(0);
  return {
    ...baseScript,
    10: (request, { port }) => ({
      throttleTimeMs: 0,
      errorCode: 0,
      errorMessage: null,
      nodeId: 1,
      host: "127.0.0.1",
      port,
      coordinators: request.body.coordinatorKeys.map((key) => ({
        key,
        nodeId: 1,
        host: "127.0.0.1",
        port,
        errorCode: 0,
        errorMessage: null,
      })),
    }),
    11: (request) => {
      const protocol = request.body.protocols[0];
      const known = request.body.memberId !== "";
      return {
        throttleTimeMs: 0,
        errorCode: known ? 0 : 79,
        generationId: known ? 1 : -1,
        protocolType: known ? request.body.protocolType : null,
        // Null is only allowed from v7; older versions get an empty name while the member id is being assigned.
        protocolName: known ? (protocol?.name ?? "") : request.apiVersion >= 7 ? null : "",
        leader: known ? CAPTURE_MEMBER : "",
        skipAssignment: false,
        memberId: CAPTURE_MEMBER,
        members: known
          ? [
              {
                memberId: CAPTURE_MEMBER,
                groupInstanceId: request.body.groupInstanceId,
                metadata: protocol?.metadata ?? new Uint8Array(0),
              },
            ]
          : [],
      };
    },
    14: (request) => {
      const own = request.body.assignments.find((entry) => entry.memberId === request.body.memberId);
      if (own !== undefined) assignment = own.assignment.slice();
      return {
        throttleTimeMs: 0,
        errorCode: 0,
        protocolType: request.body.protocolType,
        protocolName: request.body.protocolName,
        assignment,
      };
    },
    9: (request) => {
      const partitions = (indexes: readonly number[]) =>
        indexes.map((partitionIndex) => ({
          partitionIndex,
          committedOffset: -1,
          committedLeaderEpoch: -1,
          metadata: "",
          errorCode: 0,
        }));
      return {
        throttleTimeMs: 0,
        topics: (request.body.topics ?? []).map((topic) => ({
          name: topic.name,
          partitions: partitions(topic.partitionIndexes),
        })),
        errorCode: 0,
        groups: request.body.groups.map((group) => ({
          groupId: group.groupId,
          topics: (group.topics ?? []).map((topic) => ({
            name: topic.name,
            partitions: partitions(topic.partitionIndexes),
          })),
          errorCode: 0,
        })),
      };
    },
    8: (request) => ({
      throttleTimeMs: 0,
      topics: request.body.topics.map((topic) => ({
        name: topic.name,
        partitions: topic.partitions.map((partition) => ({ partitionIndex: partition.partitionIndex, errorCode: 0 })),
      })),
    }),
    12: () => ({ throttleTimeMs: 0, errorCode: 0 }),
    13: (request) => ({
      throttleTimeMs: 0,
      errorCode: 0,
      members: request.body.members.map((member) => ({
        memberId: member.memberId,
        groupInstanceId: member.groupInstanceId,
        errorCode: 0,
      })),
    }),
  };
}

/** The producer id the scripted broker allocates: above 2^53, so it only survives as a bigint. */
export const CAPTURE_PRODUCER_ID = 2n ** 53n + 3n;

/** Answers for the admin and idempotent-producer scenarios on top of {@link baseScript}. */
export function adminScript(): ResponseScript {
  return {
    ...baseScript,
    22: () => ({ throttleTimeMs: 0, errorCode: 0, producerId: CAPTURE_PRODUCER_ID, producerEpoch: 0 }),
    19: (request) => ({
      throttleTimeMs: 0,
      topics: request.body.topics.map((topic) => ({
        name: topic.name,
        topicId: ZERO_UUID,
        errorCode: 0,
        errorMessage: null,
        topicConfigErrorCode: 0,
        numPartitions: topic.numPartitions,
        replicationFactor: topic.replicationFactor,
        configs: [],
      })),
    }),
    20: (request) => ({
      throttleTimeMs: 0,
      responses: [...request.body.topicNames, ...request.body.topics.map((topic) => topic.name ?? "")].map((name) => ({
        name,
        topicId: ZERO_UUID,
        errorCode: 0,
        errorMessage: null,
      })),
    }),
    32: (request) => ({
      throttleTimeMs: 0,
      results: request.body.resources.map((resource) => ({
        errorCode: 0,
        errorMessage: null,
        resourceType: resource.resourceType,
        resourceName: resource.resourceName,
        configs: (resource.configurationKeys ?? ["cleanup.policy"]).map((name) => ({
          name,
          value: "delete",
          readOnly: false,
          isDefault: true,
          configSource: 5,
          isSensitive: false,
          synonyms: [],
          configType: 2,
          documentation: null,
        })),
      })),
    }),
    16: () => ({
      throttleTimeMs: 0,
      errorCode: 0,
      groups: [{ groupId: CAPTURE_GROUP, protocolType: "consumer", groupState: "Empty", groupType: "classic" }],
    }),
    15: (request) => ({
      throttleTimeMs: 0,
      groups: request.body.groups.map((groupId) => ({
        errorCode: 0,
        groupId,
        groupState: "Empty",
        protocolType: "consumer",
        protocolData: "",
        members: [],
        authorizedOperations: -2147483648,
      })),
    }),
    10: groupScript()[10],
  };
}

/** The record kafkajs produces in the produce scenarios (fixed timestamp, so its batch is deterministic). */
export const KAFKAJS_MESSAGE = { key: "k1", value: "v1", headers: { h: "x" }, timestamp: "1700000000000" };

async function kafkajsClient(broker: RecordingBroker) {
  const { Kafka, logLevel } = await import("kafkajs");
  return new Kafka({
    brokers: [`127.0.0.1:${String(broker.port)}`],
    clientId: CAPTURE_CLIENT_ID,
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  });
}

/** Every capture scenario. */
export const CLIENT_SCENARIOS: readonly ClientScenario[] = [
  {
    name: "metadata",
    client: "kcat",
    reproducibleFrames: 1,
    script: baseScript,
    async run(broker) {
      const result = await runProcess(KCAT, ["-b", `127.0.0.1:${String(broker.port)}`, "-L", "-J", "-m", "10"]);
      return JSON.parse(result.stdout) as unknown;
    },
  },
  {
    name: "metadata",
    client: "kafkajs",
    script: baseScript,
    async run(broker) {
      const admin = (await kafkajsClient(broker)).admin();
      await admin.connect();
      try {
        return await admin.fetchTopicMetadata({ topics: [CAPTURE_TOPIC] });
      } finally {
        await admin.disconnect();
      }
    },
  },
  {
    // librdkafka 2.0.2 writes record batches (magic 2) only when the broker advertises Produce ≥3 and Fetch ≥4;
    // with Fetch missing from ApiVersions it falls back to a magic 0 message set, which validation rejects.
    name: "produce-without-fetch",
    client: "kcat",
    reproducibleFrames: 1,
    script: {
      ...baseScript,
      18: () => {
        const body = apiVersionsResponseBody();
        return { ...body, apiKeys: body.apiKeys.filter((key) => key.apiKey !== 1) };
      },
    },
    async run(broker) {
      const args = ["-b", `127.0.0.1:${String(broker.port)}`, "-P", "-t", CAPTURE_TOPIC, "-p", "0", "-K:"];
      return runProcess(KCAT, args, { input: "k1:v1\n" });
    },
  },
  {
    name: "produce",
    client: "kcat",
    reproducibleFrames: 1,
    script: baseScript,
    async run(broker) {
      const args = ["-b", `127.0.0.1:${String(broker.port)}`, "-P", "-t", CAPTURE_TOPIC, "-p", "0", "-K:", "-H", "h=x"];
      return runProcess(KCAT, args, { input: "k1:v1\n" });
    },
  },
  {
    name: "produce-gzip",
    client: "kcat",
    reproducibleFrames: 1,
    script: baseScript,
    async run(broker) {
      const args = [
        "-b",
        `127.0.0.1:${String(broker.port)}`,
        "-P",
        "-t",
        CAPTURE_TOPIC,
        "-p",
        "0",
        "-K:",
        "-z",
        "gzip",
      ];
      // librdkafka sends a batch uncompressed when compression would not shrink it: use compressible values.
      return runProcess(KCAT, args, { input: `k1:${GZIP_VALUE}\nk2:${GZIP_VALUE}\n` });
    },
  },
  {
    name: "consume",
    client: "kcat",
    reproducibleFrames: 1,
    script: baseScript,
    async run(broker) {
      const args = [
        "-b",
        `127.0.0.1:${String(broker.port)}`,
        "-C",
        "-t",
        CAPTURE_TOPIC,
        "-p",
        "0",
        "-o",
        "beginning",
        "-c",
        "1",
        "-f",
        "%k=%s @%o headers:%h\n",
      ];
      return runProcess(KCAT, args);
    },
  },
  {
    name: "offsets",
    client: "kafkajs",
    script: baseScript,
    async run(broker) {
      const admin = (await kafkajsClient(broker)).admin();
      await admin.connect();
      try {
        return await admin.fetchTopicOffsets(CAPTURE_TOPIC);
      } finally {
        await admin.disconnect();
      }
    },
  },
  {
    name: "consumer-group",
    client: "kcat",
    reproducibleFrames: 1,
    script: groupScript(),
    async run(broker) {
      const args = [
        "-b",
        `127.0.0.1:${String(broker.port)}`,
        "-G",
        CAPTURE_GROUP,
        "-X",
        "auto.offset.reset=earliest",
        "-c",
        "1",
        "-f",
        "%k=%s @%o\n",
        CAPTURE_TOPIC,
      ];
      return runProcess(KCAT, args);
    },
  },
  {
    name: "consumer-group",
    client: "kafkajs",
    script: groupScript(),
    // Heartbeats, fetch polls and commits depend on timing; the join/sync/offset-fetch sequence does not.
    reproducibleFrames: 7,
    async run(broker) {
      const consumer = (await kafkajsClient(broker)).consumer({
        groupId: CAPTURE_GROUP,
        maxWaitTimeInMs: 100,
        allowAutoTopicCreation: false,
      });
      await consumer.connect();
      try {
        await consumer.subscribe({ topic: CAPTURE_TOPIC, fromBeginning: true });
        return await new Promise<string>((resolve) => {
          void consumer.run({
            eachMessage: async ({ message }) => {
              resolve(`${message.key?.toString() ?? ""}=${message.value?.toString() ?? ""} @${message.offset}`);
            },
          });
        });
      } finally {
        await consumer.disconnect();
      }
    },
  },
  {
    name: "idempotent-produce",
    client: "kcat",
    reproducibleFrames: 1,
    script: adminScript(),
    async run(broker) {
      const args = [
        "-b",
        `127.0.0.1:${String(broker.port)}`,
        "-P",
        "-t",
        CAPTURE_TOPIC,
        "-p",
        "0",
        "-K:",
        "-X",
        "enable.idempotence=true",
      ];
      return runProcess(KCAT, args, { input: "k1:v1\n" });
    },
  },
  {
    name: "idempotent-produce",
    client: "kafkajs",
    script: adminScript(),
    async run(broker) {
      const producer = (await kafkajsClient(broker)).producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        retry: { retries: 1 },
      });
      await producer.connect();
      try {
        return await producer.send({
          topic: CAPTURE_TOPIC,
          acks: -1,
          messages: [{ ...KAFKAJS_MESSAGE, partition: 0 }],
        });
      } finally {
        await producer.disconnect();
      }
    },
  },
  {
    name: "admin",
    client: "kafkajs",
    script: adminScript(),
    async run(broker) {
      const admin = (await kafkajsClient(broker)).admin();
      await admin.connect();
      try {
        const created = await admin.createTopics({
          topics: [
            {
              topic: "orders",
              numPartitions: 3,
              replicationFactor: 1,
              configEntries: [{ name: "cleanup.policy", value: "compact" }],
            },
          ],
        });
        const configs = await admin.describeConfigs({
          includeSynonyms: false,
          resources: [{ type: 2, name: "orders", configNames: ["cleanup.policy"] }],
        });
        const groups = await admin.listGroups();
        const described = await admin.describeGroups([CAPTURE_GROUP]);
        await admin.deleteTopics({ topics: ["orders"] });
        return { created, configs, groups, described };
      } finally {
        await admin.disconnect();
      }
    },
  },
  {
    name: "produce",
    client: "kafkajs",
    script: baseScript,
    async run(broker) {
      const producer = (await kafkajsClient(broker)).producer({ allowAutoTopicCreation: false });
      await producer.connect();
      try {
        return await producer.send({
          topic: CAPTURE_TOPIC,
          acks: -1,
          messages: [{ ...KAFKAJS_MESSAGE, partition: 0 }],
        });
      } finally {
        await producer.disconnect();
      }
    },
  },
];

/** Runs one scenario against a fresh recording broker. */
export async function runScenario(scenario: ClientScenario): Promise<{ broker: RecordingBroker; output: unknown }> {
  const broker = await startRecordingBroker(scenario.script);
  try {
    const output = await scenario.run(broker);
    return { broker, output };
  } finally {
    await broker.close();
  }
}
