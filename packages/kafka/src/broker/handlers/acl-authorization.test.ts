// Every API's answer to a principal without ACLs, and the same request once an ACL allows it. Clients log in with
// SASL PLAIN on a SASL_PLAINTEXT connection, so the principal is the one the broker authenticated.
import { InMemoryMetadataStore, MemoryWalProvider } from "@nereus/core/testing";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { BrokerHarness, TestClient, batchOf, createTopicsBody, utf8 } from "../../../test/broker-harness.js";
import { createGroupCoordinator, type GroupCoordinator } from "../../groups/group-coordinator.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import type { RequestBody } from "../../protocol/supported-apis.js";
import { AclOperation, AclPermission, PatternType, ResourceType } from "../../security/acl/acl-types.js";
import type { KafkaApiHandlers } from "../kafka-api-handler.js";

const TOPIC_DENIED = KafkaErrorCode.TOPIC_AUTHORIZATION_FAILED;
const GROUP_DENIED = KafkaErrorCode.GROUP_AUTHORIZATION_FAILED;
const CLUSTER_DENIED = KafkaErrorCode.CLUSTER_AUTHORIZATION_FAILED;
const USERS = new Map([
  ["admin", "admin-secret"],
  ["alice", "alice-secret"],
]);

let harness: BrokerHarness;
let coordinator: GroupCoordinator;
let admin: TestClient;
let alice: TestClient;

async function login(user: string): Promise<TestClient> {
  const client = new TestClient(
    harness.broker.openConnection("10.0.0.7:5000", { listenerName: "SASL", securityProtocol: "SASL_PLAINTEXT" }),
  );
  expect((await client.request(17, 1, { mechanism: "PLAIN" })).errorCode).toBe(0);
  const password = USERS.get(user) ?? "";
  expect((await client.request(36, 2, { authBytes: utf8(`\0${user}\0${password}`) })).errorCode).toBe(0);
  return client;
}

function grant(
  resourceType: number,
  resourceName: string,
  operation: number,
  patternType: number = PatternType.LITERAL,
): RequestBody<30>["creations"][number] {
  return {
    resourceType,
    resourceName,
    resourcePatternType: patternType,
    principal: "User:alice",
    host: "*",
    operation,
    permissionType: AclPermission.ALLOW,
  };
}

async function allow(...creations: Array<RequestBody<30>["creations"][number]>): Promise<void> {
  const response = await admin.request(30, 3, { creations });
  expect(response.results.map((result) => result.errorCode)).toEqual(creations.map(() => 0));
}

const offsetCommit = (groupId: string, topic: string): RequestBody<8> => ({
  groupId,
  generationIdOrMemberEpoch: -1,
  memberId: "",
  groupInstanceId: null,
  retentionTimeMs: -1,
  topics: [
    {
      name: topic,
      partitions: [
        { partitionIndex: 0, committedOffset: 1, committedLeaderEpoch: -1, commitTimestamp: -1, committedMetadata: "" },
      ],
    },
  ],
});

beforeEach(async () => {
  const metadata = new InMemoryMetadataStore();
  coordinator = createGroupCoordinator({ metadata, cluster: "kafka-test", nodeId: 1, host: "127.0.0.1", port: 9092 });
  harness = new BrokerHarness(
    {
      groupHandlers: coordinator.handlers as KafkaApiHandlers,
      sasl: { mechanisms: ["PLAIN"], plainUsers: USERS },
      authorization: { enabled: true, superUsers: ["User:admin"], refreshIntervalMs: 0 },
    },
    {},
    { metadata, objectWal: new MemoryWalProvider({ walKind: "OBJECT" }) },
  );
  admin = await login("admin");
  alice = await login("alice");
  expect((await admin.request(19, 7, createTopicsBody([{ name: "orders", partitions: 1 }]))).topics[0]?.errorCode).toBe(
    0,
  );
});

afterEach(async () => {
  await coordinator[Symbol.asyncDispose]();
  await harness.close();
});

describe("authorization of the data APIs", () => {
  test("Produce needs WRITE on the topic; Fetch READ; ListOffsets DESCRIBE; denials are counted per API", async () => {
    expect((await alice.produce("orders", 0, batchOf(["a"])))?.errorCode).toBe(TOPIC_DENIED);
    expect((await alice.fetch("orders", 0, 0))?.errorCode).toBe(TOPIC_DENIED);
    expect((await alice.listOffset("orders", 0, -1))?.errorCode).toBe(TOPIC_DENIED);
    expect((await alice.produce("missing", 0, batchOf(["a"])))?.errorCode).toBe(TOPIC_DENIED);
    const denials = harness.broker.metrics
      .collect()
      .find((family) => family.name === "nereus_kafka_authorization_denials_total");
    expect(denials?.samples).toEqual(
      expect.arrayContaining([
        { labels: { api: "Produce" }, value: 2 },
        { labels: { api: "Fetch" }, value: 1 },
        { labels: { api: "ListOffsets" }, value: 1 },
      ]),
    );

    await allow(grant(ResourceType.TOPIC, "ord", AclOperation.WRITE, PatternType.PREFIXED));
    expect((await alice.produce("orders", 0, batchOf(["a"])))?.errorCode).toBe(0);
    expect((await alice.listOffset("orders", 0, -1))?.errorCode).toBe(0);
    expect((await alice.fetch("orders", 0, 0))?.errorCode).toBe(TOPIC_DENIED);
    await allow(grant(ResourceType.TOPIC, "orders", AclOperation.READ));
    expect((await alice.fetch("orders", 0, 0))?.errorCode).toBe(0);
  });

  test("InitProducerId needs IDEMPOTENT_WRITE on the cluster or WRITE on some topic", async () => {
    const body: RequestBody<22> = {
      transactionalId: null,
      transactionTimeoutMs: 60_000,
      producerId: -1n,
      producerEpoch: -1,
    };
    expect((await alice.request(22, 4, body)).errorCode).toBe(CLUSTER_DENIED);
    await allow(grant(ResourceType.TOPIC, "orders", AclOperation.WRITE));
    expect((await alice.request(22, 4, body)).errorCode).toBe(0);
  });

  test("Metadata: a listing leaves out undescribable topics, a named one is denied, auto-creation needs CREATE", async () => {
    const all = await alice.request(3, 12, {
      topics: null,
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
    expect(all.topics).toEqual([]);
    const named = (name: string, allowAutoTopicCreation = true): RequestBody<3> => ({
      topics: [{ topicId: "00000000-0000-0000-0000-000000000000", name }],
      allowAutoTopicCreation,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
    expect((await alice.request(3, 12, named("orders"))).topics[0]?.errorCode).toBe(TOPIC_DENIED);
    await allow(grant(ResourceType.TOPIC, "*", AclOperation.DESCRIBE));
    expect((await alice.request(3, 12, named("orders"))).topics[0]?.errorCode).toBe(0);
    expect((await alice.request(3, 12, named("fresh"))).topics[0]?.errorCode).toBe(TOPIC_DENIED);
    expect((await alice.request(3, 12, named("fresh", false))).topics[0]?.errorCode).toBe(
      KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    );
    await allow(grant(ResourceType.CLUSTER, "kafka-cluster", AclOperation.CREATE));
    expect((await alice.request(3, 12, named("fresh"))).topics[0]?.errorCode).toBe(0);
  });
});

describe("authorization of the admin APIs", () => {
  test("topic admin APIs answer TOPIC_AUTHORIZATION_FAILED, cluster ones CLUSTER_AUTHORIZATION_FAILED", async () => {
    expect((await alice.request(19, 7, createTopicsBody([{ name: "mine" }]))).topics[0]?.errorCode).toBe(TOPIC_DENIED);
    expect(
      (await alice.request(20, 5, { topics: [], topicNames: ["orders"], timeoutMs: 1000 })).responses[0]?.errorCode,
    ).toBe(TOPIC_DENIED);
    const deleteRecords = await alice.request(21, 2, {
      topics: [{ name: "orders", partitions: [{ partitionIndex: 0, offset: 0 }] }],
      timeoutMs: 1000,
    });
    expect(deleteRecords.topics[0]?.partitions[0]?.errorCode).toBe(TOPIC_DENIED);
    const describeConfigs = await alice.request(32, 4, {
      resources: [
        { resourceType: 2, resourceName: "orders", configurationKeys: null },
        { resourceType: 4, resourceName: "1", configurationKeys: null },
      ],
      includeSynonyms: false,
      includeDocumentation: false,
    });
    expect(describeConfigs.results.map((result) => result.errorCode)).toEqual([TOPIC_DENIED, CLUSTER_DENIED]);
    const alter = await alice.request(44, 1, {
      resources: [
        {
          resourceType: 2,
          resourceName: "orders",
          configs: [{ name: "retention.ms", configOperation: 0, value: "1000" }],
        },
      ],
      validateOnly: false,
    });
    expect(alter.responses[0]?.errorCode).toBe(TOPIC_DENIED);
    const partitions = await alice.request(37, 3, {
      topics: [{ name: "orders", count: 2, assignments: null }],
      timeoutMs: 1000,
      validateOnly: false,
    });
    expect(partitions.results[0]?.errorCode).toBe(TOPIC_DENIED);
    expect((await alice.request(35, 4, { topics: null })).errorCode).toBe(CLUSTER_DENIED);

    await allow(
      grant(ResourceType.TOPIC, "mine", AclOperation.CREATE),
      grant(ResourceType.TOPIC, "orders", AclOperation.ALTER_CONFIGS),
      grant(ResourceType.TOPIC, "orders", AclOperation.ALTER),
    );
    expect((await alice.request(19, 7, createTopicsBody([{ name: "mine" }]))).topics[0]?.errorCode).toBe(0);
    expect(
      (
        await alice.request(44, 1, {
          resources: [
            {
              resourceType: 2,
              resourceName: "orders",
              configs: [{ name: "retention.ms", configOperation: 0, value: "1000" }],
            },
          ],
          validateOnly: false,
        })
      ).responses[0]?.errorCode,
    ).toBe(0);
    const described = await alice.request(32, 4, {
      resources: [{ resourceType: 2, resourceName: "orders", configurationKeys: ["retention.ms"] }],
      includeSynonyms: false,
      includeDocumentation: false,
    });
    expect(described.results[0]?.configs[0]?.value).toBe("1000");
    const grown = await alice.request(37, 3, {
      topics: [{ name: "orders", count: 2, assignments: null }],
      timeoutMs: 1000,
      validateOnly: false,
    });
    expect(grown.results[0]?.errorCode).toBe(0);
  });

  test("the ACL APIs need ALTER (create, delete) and DESCRIBE (describe) on the cluster", async () => {
    const creation = grant(ResourceType.TOPIC, "orders", AclOperation.READ);
    expect((await alice.request(30, 3, { creations: [creation] })).results[0]?.errorCode).toBe(CLUSTER_DENIED);
    const everything = {
      resourceTypeFilter: ResourceType.ANY,
      resourceNameFilter: null,
      patternTypeFilter: PatternType.ANY,
      principalFilter: null,
      hostFilter: null,
      operation: AclOperation.ANY,
      permissionType: AclPermission.ANY,
    };
    expect((await alice.request(29, 3, everything)).errorCode).toBe(CLUSTER_DENIED);
    expect((await alice.request(31, 3, { filters: [everything] })).filterResults[0]?.errorCode).toBe(CLUSTER_DENIED);
    await allow(creation);
    const described = await admin.request(29, 3, everything);
    expect(described.resources).toEqual([
      {
        resourceType: ResourceType.TOPIC,
        resourceName: "orders",
        patternType: PatternType.LITERAL,
        acls: [
          { principal: "User:alice", host: "*", operation: AclOperation.READ, permissionType: AclPermission.ALLOW },
        ],
      },
    ]);
    const invalid = await admin.request(30, 3, {
      creations: [{ ...creation, resourcePatternType: PatternType.MATCH }],
    });
    expect(invalid.results[0]?.errorCode).toBe(KafkaErrorCode.INVALID_REQUEST);
    const deleted = await admin.request(31, 3, { filters: [everything] });
    expect(deleted.filterResults[0]?.matchingAcls.map((acl) => acl.resourceName)).toEqual(["orders"]);
    expect((await admin.request(29, 3, everything)).resources).toEqual([]);
  });
});

describe("authorization of the SCRAM credential APIs", () => {
  test("describing needs DESCRIBE and altering ALTER on the cluster; a denied change stores nothing", async () => {
    const upsertion = {
      name: "carol",
      mechanism: 2,
      iterations: 4096,
      salt: utf8("salt-of-carol"),
      saltedPassword: new Uint8Array(64).fill(7),
    };
    const denied = await alice.request(51, 0, { deletions: [], upsertions: [upsertion] });
    expect(denied.results).toEqual([
      { user: "carol", errorCode: CLUSTER_DENIED, errorMessage: expect.any(String) as string },
    ]);
    expect((await alice.request(50, 0, { users: null })).errorCode).toBe(CLUSTER_DENIED);
    const described = await admin.request(50, 0, { users: [{ name: "carol" }] });
    expect(described.results[0]?.credentialInfos).toEqual([]);
    expect((await admin.request(51, 0, { deletions: [], upsertions: [upsertion] })).results[0]?.errorCode).toBe(0);
    await allow(grant(ResourceType.CLUSTER, "kafka-cluster", AclOperation.DESCRIBE));
    const listed = await alice.request(50, 0, { users: [{ name: "carol" }] });
    expect(listed.results[0]?.credentialInfos).toEqual([{ mechanism: 2, iterations: 4096 }]);
  });
});

describe("authorization of the group APIs", () => {
  test("group APIs answer GROUP_AUTHORIZATION_FAILED without READ/DESCRIBE/DELETE on the group", async () => {
    const find = await alice.request(10, 4, { key: "", keyType: 0, coordinatorKeys: ["g1"] });
    expect(find.coordinators[0]?.errorCode).toBe(GROUP_DENIED);
    const join = await alice.request(11, 7, {
      groupId: "g1",
      sessionTimeoutMs: 10_000,
      rebalanceTimeoutMs: 10_000,
      memberId: "",
      groupInstanceId: null,
      protocolType: "consumer",
      protocols: [{ name: "range", metadata: new Uint8Array(0) }],
      reason: null,
    });
    expect(join.errorCode).toBe(GROUP_DENIED);
    expect(
      (await alice.request(12, 4, { groupId: "g1", generationId: 1, memberId: "m", groupInstanceId: null })).errorCode,
    ).toBe(GROUP_DENIED);
    const commit = await alice.request(8, 8, offsetCommit("g1", "orders"));
    expect(commit.topics[0]?.partitions[0]?.errorCode).toBe(GROUP_DENIED);
    const fetch = await alice.request(9, 7, {
      groupId: "g1",
      topics: [{ name: "orders", partitionIndexes: [0] }],
      groups: [],
      requireStable: false,
    });
    expect(fetch.errorCode).toBe(GROUP_DENIED);
    const describe = await alice.request(15, 5, { groups: ["g1"], includeAuthorizedOperations: false });
    expect(describe.groups[0]?.errorCode).toBe(GROUP_DENIED);
    expect((await alice.request(42, 2, { groupsNames: ["g1"] })).results[0]?.errorCode).toBe(GROUP_DENIED);
    const offsetDelete = await alice.request(47, 0, {
      groupId: "g1",
      topics: [{ name: "orders", partitions: [{ partitionIndex: 0 }] }],
    });
    expect(offsetDelete.errorCode).toBe(GROUP_DENIED);

    await allow(grant(ResourceType.GROUP, "g1", AclOperation.READ));
    const topicDenied = await alice.request(8, 8, offsetCommit("g1", "orders"));
    expect(topicDenied.topics[0]?.partitions[0]?.errorCode).toBe(TOPIC_DENIED);
    await allow(grant(ResourceType.TOPIC, "orders", AclOperation.READ));
    expect((await alice.request(8, 8, offsetCommit("g1", "orders"))).topics[0]?.partitions[0]?.errorCode).toBe(0);
    const fetched = await alice.request(9, 7, { groupId: "g1", topics: null, groups: [], requireStable: false });
    expect(fetched.errorCode).toBe(0);
    expect(fetched.topics.map((topic) => topic.name)).toEqual(["orders"]);
    const found = await alice.request(10, 4, { key: "", keyType: 0, coordinatorKeys: ["g1"] });
    expect(found.coordinators[0]?.errorCode).toBe(0);
    const listed = await alice.request(16, 4, { statesFilter: [], typesFilter: [] });
    expect(listed.groups.map((group) => group.groupId)).toEqual(["g1"]);
  });
});

describe("authorization disabled", () => {
  test("the ACL APIs answer SECURITY_DISABLED and every request is allowed", async () => {
    const open = new BrokerHarness();
    try {
      const client = open.connect();
      const creation = grant(ResourceType.TOPIC, "orders", AclOperation.READ);
      expect((await client.request(30, 3, { creations: [creation] })).results[0]?.errorCode).toBe(
        KafkaErrorCode.SECURITY_DISABLED,
      );
      expect((await client.createTopic("free")).topics[0]?.errorCode).toBe(0);
      expect((await client.produce("free", 0, batchOf(["a"])))?.errorCode).toBe(0);
    } finally {
      await open.close();
    }
  });
});
