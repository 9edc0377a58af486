// The admin API over a broker on in-memory stores: routing and input checks, clusters, tenants and namespaces,
// topic lifecycle, stats, and the cursor operations (create, reset by time and by message id, skip, skip all,
// delete) on non-partitioned and partitioned topics, with and without connected consumers.
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness } from "../../test/broker-harness.js";
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import { parseTopicName } from "../topics/topic-name.js";
import { InitialPosition, SubscriptionType, encodeMessageEntry } from "../protocol/index.js";
import type { AdminMethod, AdminResponse } from "./admin-exchange.js";
import { type JsonValue, parseJsonText } from "./json-text.js";
import { type PulsarAdmin, createPulsarAdmin } from "./pulsar-admin.js";

const CLUSTER = "pulsar-broker-test";
const BASE_TIME = 1_700_000_000_000;

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

interface Setup {
  readonly h: BrokerHarness;
  readonly admin: PulsarAdmin;
  call(method: AdminMethod, path: string, body?: JsonValue | string): Promise<AdminResponse>;
  /** The response body of a call that must answer `status`. */
  expectStatus(status: number, method: AdminMethod, path: string, body?: JsonValue | string): Promise<unknown>;
}

function setup(): Setup {
  const h = (harness = new BrokerHarness());
  const admin = createPulsarAdmin({
    broker: h.broker.context,
    metadata: h.metadata,
    cluster: CLUSTER,
    serviceUrl: "http://broker.test:8080",
  });
  const call = (method: AdminMethod, path: string, body?: JsonValue | string): Promise<AdminResponse> => {
    const [pathPart, queryPart] = path.split("?");
    return admin.handle({
      method,
      segments: pathPart!.split("/").map(decodeURIComponent),
      query: new Map(new URLSearchParams(queryPart ?? "")),
      body: typeof body === "string" ? parseJsonText(body) : body,
    });
  };
  return {
    h,
    admin,
    call,
    async expectStatus(status, method, path, body) {
      const response = await call(method, path, body);
      expect(response, `${method} ${path}`).toMatchObject({ status });
      return response.body;
    },
  };
}

function entry(index: number, numMessagesInBatch?: number): Uint8Array {
  return encodeMessageEntry(
    {
      producerName: "p",
      sequenceId: BigInt(index),
      publishTime: BigInt(BASE_TIME + index * 1000),
      ...(numMessagesInBatch === undefined ? {} : { numMessagesInBatch }),
    },
    new TextEncoder().encode(`event-${String(index)}`),
  );
}

async function publish(h: BrokerHarness, topic: string, count: number): Promise<ManagedLedger> {
  const ledger = await h.broker.context.ledgers.open(topic);
  for (let index = 0; index < count; index += 1) await ledger.addEntry(entry(index));
  return ledger;
}

interface SubscriptionStatsBody {
  readonly msgBacklog: number;
  readonly type: string;
  readonly consumers: Array<{ readonly consumerName: string }>;
}

async function backlogOf(s: Setup, topicPath: string, subscription: string): Promise<number> {
  const stats = (await s.expectStatus(200, "GET", `${topicPath}/stats`)) as {
    subscriptions: Record<string, SubscriptionStatsBody>;
  };
  return stats.subscriptions[subscription]!.msgBacklog;
}

describe("routing and input checks", () => {
  test("unknown paths are 404 and unserved methods 405, with a reason", async () => {
    const s = setup();
    expect(await s.call("GET", "brokers/leader")).toEqual({
      status: 404,
      body: { reason: "No admin endpoint at /admin/v2/brokers/leader" },
    });
    expect(await s.expectStatus(405, "POST", "clusters")).toEqual({ reason: "POST is not served on this path" });
    await s.expectStatus(405, "GET", "persistent/public/default/t");
  });

  test("bad names, numbers and bodies are 400 before anything is created", async () => {
    const s = setup();
    await s.expectStatus(400, "PUT", "tenants/a b");
    await s.expectStatus(400, "PUT", "namespaces/public/" + "n".repeat(256));
    await s.expectStatus(400, "PUT", "persistent/public/default/a%2Fb");
    await s.expectStatus(400, "PUT", "persistent/public/default/t/partitions", 0);
    await s.expectStatus(400, "PUT", "persistent/public/default/t/partitions", '"three"');
    await s.expectStatus(400, "PUT", "persistent/public/default/t/partitions", {
      partitions: 2,
      properties: { a: "b" },
    });
    await s.expectStatus(400, "PUT", "persistent/public/default/t", { owner: "me" });
    await s.expectStatus(400, "POST", "persistent/public/default/t/subscription/s/skip/-1");
    await s.expectStatus(400, "POST", "persistent/public/default/t/subscription/s/skip/01");
    await s.expectStatus(400, "POST", "persistent/public/default/t/subscription/s/skip/2147483648");
    await s.expectStatus(400, "POST", "persistent/public/default/t/subscription/s/resetcursor/soon");
    await s.expectStatus(400, "POST", "persistent/public/default/t/subscription/s/resetcursor", { ledgerId: 1 });
    await s.expectStatus(400, "POST", "persistent/public/default/t/subscription/s/resetcursor", {
      ledgerId: 2n ** 63n,
      entryId: 0,
    });
    await s.expectStatus(400, "PUT", "persistent/public/default/t/subscription/s", { ledgerId: 1, entryId: "x" });
    await s.expectStatus(400, "PUT", "persistent/public/default/t/subscription/" + "\ud800");
    await s.expectStatus(400, "DELETE", "persistent/public/default/t?force=maybe");
    expect(await s.expectStatus(200, "GET", "persistent/public/default")).toEqual([]);
    expect(await s.expectStatus(200, "GET", "persistent/public/default/partitioned")).toEqual([]);
  });

  test("non-persistent listings are empty (the Java client asks both domains)", async () => {
    const s = setup();
    expect(await s.expectStatus(200, "GET", "non-persistent/public/default")).toEqual([]);
    expect(await s.expectStatus(200, "GET", "non-persistent/public/default/partitioned")).toEqual([]);
  });
});

describe("clusters, tenants and namespaces", () => {
  test("the broker's cluster is the only one", async () => {
    const s = setup();
    expect(await s.expectStatus(200, "GET", "clusters")).toEqual([CLUSTER]);
    expect(await s.expectStatus(200, "GET", `clusters/${CLUSTER}`)).toEqual({
      serviceUrl: "http://broker.test:8080",
      brokerServiceUrl: "pulsar://broker.test:6650",
    });
    await s.expectStatus(404, "GET", "clusters/other");
  });

  test("tenants and namespaces are created, listed and deleted; public and public/default are built in", async () => {
    const s = setup();
    expect(await s.expectStatus(200, "GET", "tenants")).toEqual(["public"]);
    expect(await s.expectStatus(200, "GET", "namespaces/public")).toEqual(["public/default"]);
    await s.expectStatus(204, "PUT", "tenants/acme", { adminRoles: ["ops", "admin"], allowedClusters: [CLUSTER] });
    await s.expectStatus(409, "PUT", "tenants/acme", {});
    await s.expectStatus(412, "PUT", "tenants/other", { allowedClusters: ["elsewhere"] });
    expect(await s.expectStatus(200, "GET", "tenants")).toEqual(["acme", "public"]);
    expect(await s.expectStatus(200, "GET", "tenants/acme")).toEqual({
      adminRoles: ["admin", "ops"],
      allowedClusters: [CLUSTER],
    });
    await s.expectStatus(404, "PUT", "namespaces/nobody/ns");
    await s.expectStatus(204, "PUT", "namespaces/acme/orders");
    await s.expectStatus(204, "PUT", "namespaces/public/extra", { bundles: { numBundles: 4 } });
    await s.expectStatus(409, "PUT", "namespaces/acme/orders");
    expect(await s.expectStatus(200, "GET", "namespaces/acme")).toEqual(["acme/orders"]);
    expect(await s.expectStatus(200, "GET", "namespaces/public")).toEqual(["public/default", "public/extra"]);
    expect(await s.expectStatus(200, "GET", "namespaces/acme/orders")).toMatchObject({
      replication_clusters: [CLUSTER],
    });
    await s.expectStatus(409, "DELETE", "tenants/acme");
    await s.expectStatus(204, "PUT", "persistent/acme/orders/t1");
    await s.expectStatus(409, "DELETE", "namespaces/acme/orders");
    await s.expectStatus(204, "DELETE", "persistent/acme/orders/t1");
    await s.expectStatus(204, "DELETE", "namespaces/acme/orders");
    await s.expectStatus(404, "GET", "namespaces/acme/orders");
    await s.expectStatus(204, "DELETE", "tenants/acme");
    await s.expectStatus(404, "GET", "tenants/acme");
    await s.expectStatus(404, "GET", "namespaces/acme");
    await s.expectStatus(412, "DELETE", "tenants/public");
    await s.expectStatus(412, "DELETE", "namespaces/public/default");
  });
});

describe("topics", () => {
  test("a partitioned topic is created with its partitions, listed, described and deleted", async () => {
    const s = setup();
    const path = "persistent/public/default/orders";
    await s.expectStatus(204, "PUT", `${path}/partitions`, 3);
    await s.expectStatus(409, "PUT", `${path}/partitions`, 3);
    await s.expectStatus(409, "PUT", path);
    await s.expectStatus(409, "PUT", `${path}-partition-1`);
    await s.expectStatus(412, "PUT", `${path}-partition-1/partitions`, 2);
    expect(await s.expectStatus(200, "GET", `${path}/partitions`)).toEqual({ partitions: 3, deleted: false });
    expect(await s.expectStatus(200, "GET", "persistent/public/default/partitioned")).toEqual([
      "persistent://public/default/orders",
    ]);
    expect(await s.expectStatus(200, "GET", "persistent/public/default")).toEqual(
      [0, 1, 2].map((index) => `persistent://public/default/orders-partition-${String(index)}`),
    );
    expect(await s.expectStatus(200, "GET", "namespaces/public/default/topics")).toHaveLength(3);
    await s.expectStatus(412, "DELETE", path);
    await s.expectStatus(204, "DELETE", `${path}/partitions`);
    await s.expectStatus(404, "DELETE", `${path}/partitions`);
    expect(await s.expectStatus(200, "GET", `${path}/partitions`)).toEqual({ partitions: 0, deleted: false });
    expect(await s.expectStatus(200, "GET", "persistent/public/default")).toEqual([]);
    expect(await s.expectStatus(200, "GET", "persistent/public/default/partitioned")).toEqual([]);
  });

  test("a partitioned topic's metadata is what a client's PARTITIONED_METADATA sees", async () => {
    const s = setup();
    await s.expectStatus(204, "PUT", "persistent/public/default/clicks/partitions", { partitions: 4 });
    const client = s.h.connect();
    await client.handshake();
    client.send({
      type: "PARTITIONED_METADATA",
      body: { topic: "persistent://public/default/clicks", requestId: 7n },
    });
    expect(await client.waitFor("PARTITIONED_METADATA_RESPONSE")).toMatchObject([{ requestId: 7n, partitions: 4 }]);
  });

  test("a non-partitioned topic is created once and deleted once; its name cannot become partitioned", async () => {
    const s = setup();
    const path = "persistent/public/default/single";
    await s.expectStatus(204, "PUT", path, {});
    await s.expectStatus(409, "PUT", path);
    await s.expectStatus(409, "PUT", `${path}/partitions`, 2);
    expect(await s.expectStatus(200, "GET", "persistent/public/default")).toEqual([
      "persistent://public/default/single",
    ]);
    await s.expectStatus(404, "GET", `${path}/partitioned-stats`);
    await s.expectStatus(204, "DELETE", path);
    await s.expectStatus(404, "DELETE", path);
    await s.expectStatus(404, "GET", `${path}/stats`);
  });
});

describe("stats and cursor operations", () => {
  const TOPIC = "persistent://public/default/events";
  const PATH = "persistent/public/default/events";

  test("stats report the backlog, storage size and subscriptions; internal stats the cursor positions", async () => {
    const s = setup();
    const ledger = await publish(s.h, TOPIC, 10);
    await s.expectStatus(204, "PUT", `${PATH}/subscription/from-start`, { ledgerId: -1, entryId: -1 });
    await s.expectStatus(204, "PUT", `${PATH}/subscription/from-end`);
    await s.expectStatus(409, "PUT", `${PATH}/subscription/from-end`);
    const stats = (await s.expectStatus(200, "GET", `${PATH}/stats`)) as Record<string, unknown>;
    expect(stats).toMatchObject({
      storageSize: ledger.totalSize(),
      backlogSize: ledger.totalSize(),
      publishers: [],
      subscriptions: {
        "from-start": { msgBacklog: 10, type: "None", consumers: [], isDurable: true },
        "from-end": { msgBacklog: 0 },
      },
    });
    expect(await s.expectStatus(200, "GET", `${PATH}/subscriptions`)).toEqual(["from-end", "from-start"]);
    const L = ledger.ledgerId.toString();
    expect(await s.expectStatus(200, "GET", `${PATH}/internalStats`)).toMatchObject({
      numberOfEntries: 10,
      totalSize: ledger.totalSize(),
      lastConfirmedEntry: `${L}:9`,
      state: "LedgerOpened",
      ledgers: [{ ledgerId: ledger.ledgerId, entries: 10 }],
      cursors: {
        "from-start": { markDeletePosition: `${L}:-1`, readPosition: `${L}:0`, individuallyDeletedMessages: "[]" },
        "from-end": { markDeletePosition: `${L}:9`, readPosition: `${L}:10` },
      },
    });
  });

  test("skip, reset by time, reset to a message id (included or excluded) and skip all move the cursor", async () => {
    const s = setup();
    const ledger = await publish(s.h, TOPIC, 10);
    const sub = `${PATH}/subscription/s`;
    await s.expectStatus(204, "PUT", sub, { ledgerId: -1, entryId: -1, partitionIndex: -1, batchSize: 0 });
    await s.expectStatus(204, "POST", `${sub}/skip/3`);
    expect(await backlogOf(s, PATH, "s")).toBe(7);
    await s.expectStatus(204, "POST", `${sub}/resetcursor/${String(BASE_TIME + 5000)}`);
    expect(await backlogOf(s, PATH, "s")).toBe(5);
    await s.expectStatus(204, "POST", `${sub}/resetcursor/0`);
    expect(await backlogOf(s, PATH, "s")).toBe(10);
    const ledgerId = ledger.ledgerId;
    await s.expectStatus(204, "POST", `${sub}/resetcursor`, { ledgerId, entryId: 4, batchIndex: -1 });
    expect(await backlogOf(s, PATH, "s")).toBe(6);
    await s.expectStatus(204, "POST", `${sub}/resetcursor`, { ledgerId, entryId: 4, excluded: true });
    expect(await backlogOf(s, PATH, "s")).toBe(5);
    await s.expectStatus(204, "POST", `${sub}/resetcursor`, { ledgerId: -1, entryId: -1 });
    expect(await backlogOf(s, PATH, "s")).toBe(10);
    expect(await s.expectStatus(412, "POST", `${sub}/resetcursor`, { ledgerId: ledgerId + 1n, entryId: 4 })).toEqual({
      reason: expect.stringContaining("Unable to find position for position specified"),
    });
    await s.expectStatus(204, "POST", `${sub}/skip_all`);
    expect(await backlogOf(s, PATH, "s")).toBe(0);
    await ledger.addEntry(entry(10));
    expect(await backlogOf(s, PATH, "s")).toBe(1);
    await s.expectStatus(204, "POST", `${sub}/skip/5`);
    expect(await backlogOf(s, PATH, "s")).toBe(0);
  });

  test("a reset to a batch index acknowledges the batch's earlier messages", async () => {
    const s = setup();
    const ledger = await publish(s.h, TOPIC, 2);
    await ledger.addEntry(entry(2, 4));
    const sub = `${PATH}/subscription/s`;
    await s.expectStatus(204, "PUT", sub, { ledgerId: -1, entryId: -1 });
    await s.expectStatus(204, "POST", `${sub}/resetcursor`, { ledgerId: ledger.ledgerId, entryId: 2, batchIndex: 2 });
    const cursor = ledger.cursors.get("s")!;
    expect([0, 1, 2, 3].map((index) => cursor.isAcked(2, index))).toEqual([true, true, false, false]);
    expect(cursor.markDeleteOffset).toBe(2);
    await s.expectStatus(204, "POST", `${sub}/resetcursor`, {
      ledgerId: ledger.ledgerId,
      entryId: 2,
      batchIndex: 2,
      excluded: true,
    });
    expect([0, 1, 2, 3].map((index) => ledger.cursors.get("s")!.isAcked(2, index))).toEqual([true, true, true, false]);
    await s.expectStatus(204, "POST", `${sub}/resetcursor`, {
      ledgerId: ledger.ledgerId,
      entryId: 2,
      batchIndex: 3,
      excluded: true,
    });
    expect(ledger.cursors.get("s")!.markDeleteOffset).toBe(3);
  });

  test("operations on missing topics and subscriptions are 404", async () => {
    const s = setup();
    await publish(s.h, TOPIC, 1);
    await s.expectStatus(404, "GET", "persistent/public/default/nothing/stats");
    await s.expectStatus(404, "POST", "persistent/public/default/nothing/subscription/s/skip_all");
    expect(await s.expectStatus(404, "POST", `${PATH}/subscription/none/skip/1`)).toEqual({
      reason: "Subscription none not found",
    });
    await s.expectStatus(404, "POST", `${PATH}/subscription/none/resetcursor/0`);
    await s.expectStatus(404, "DELETE", `${PATH}/subscription/none`);
  });

  test("with a consumer connected: stats list it, a reset disconnects it, deletions need force", async () => {
    const s = setup();
    await publish(s.h, TOPIC, 5);
    const client = s.h.connect();
    await client.handshake();
    client.send({
      type: "SUBSCRIBE",
      body: {
        topic: TOPIC,
        subscription: "live",
        subType: SubscriptionType.Shared,
        consumerId: 1n,
        requestId: 1n,
        consumerName: "reader-1",
        initialPosition: InitialPosition.Earliest,
      },
    });
    await client.waitFor("SUCCESS");
    const stats = (await s.expectStatus(200, "GET", `${PATH}/stats`)) as {
      subscriptions: Record<string, SubscriptionStatsBody>;
    };
    expect(stats.subscriptions["live"]).toMatchObject({
      type: "Shared",
      msgBacklog: 5,
      consumers: [{ consumerName: "reader-1" }],
    });
    await s.expectStatus(412, "DELETE", `${PATH}/subscription/live`);
    await s.expectStatus(412, "DELETE", PATH);
    await s.expectStatus(204, "POST", `${PATH}/subscription/live/resetcursor/0`);
    await client.waitFor("CLOSE_CONSUMER");
    client.send({
      type: "SUBSCRIBE",
      body: { topic: TOPIC, subscription: "live", subType: SubscriptionType.Shared, consumerId: 2n, requestId: 2n },
    });
    await client.waitFor("SUCCESS", 2);
    await s.expectStatus(204, "DELETE", `${PATH}?force=true`);
    await client.waitFor("CLOSE_CONSUMER", 2);
    await s.expectStatus(404, "GET", `${PATH}/stats`);
  });
});

describe("partitioned topics", () => {
  const PATH = "persistent/public/default/parts";

  test("subscription operations fan out over the partitions; skip and reset to a message id are refused", async () => {
    const s = setup();
    await s.expectStatus(204, "PUT", `${PATH}/partitions`, 2);
    const ledgers = [
      await publish(s.h, "persistent://public/default/parts-partition-0", 3),
      await publish(s.h, "persistent://public/default/parts-partition-1", 4),
    ];
    const sub = `${PATH}/subscription/s`;
    await s.expectStatus(204, "PUT", sub, { ledgerId: -1, entryId: -1 });
    await s.expectStatus(409, "PUT", sub, { ledgerId: -1, entryId: -1 });
    expect(await s.expectStatus(200, "GET", `${PATH}/subscriptions`)).toEqual(["s"]);
    const stats = (await s.expectStatus(200, "GET", `${PATH}/partitioned-stats`)) as {
      metadata: { partitions: number };
      subscriptions: Record<string, SubscriptionStatsBody>;
      partitions: Record<string, { subscriptions: Record<string, SubscriptionStatsBody> }>;
      storageSize: number;
    };
    expect(stats.metadata.partitions).toBe(2);
    expect(stats.subscriptions["s"]!.msgBacklog).toBe(7);
    expect(stats.storageSize).toBe(ledgers[0]!.totalSize() + ledgers[1]!.totalSize());
    expect(stats.partitions["persistent://public/default/parts-partition-1"]!.subscriptions["s"]!.msgBacklog).toBe(4);
    expect(await s.expectStatus(200, "GET", `${PATH}/partitioned-stats?perPartition=false`)).toMatchObject({
      partitions: {},
    });
    await s.expectStatus(404, "GET", `${PATH}/stats`);
    await s.expectStatus(404, "GET", `${PATH}/internalStats`);
    expect(await s.expectStatus(405, "POST", `${sub}/skip/1`)).toEqual({
      reason: "Skip messages on a partitioned topic is not allowed",
    });
    await s.expectStatus(405, "POST", `${sub}/resetcursor`, { ledgerId: ledgers[0]!.ledgerId, entryId: 1 });
    await s.expectStatus(204, "POST", `${PATH}-partition-1/subscription/s/skip/1`);
    expect(await backlogOf(s, `${PATH}-partition-1`, "s")).toBe(3);
    await s.expectStatus(204, "POST", `${PATH}-partition-0/subscription/s/resetcursor`, {
      ledgerId: ledgers[0]!.ledgerId,
      entryId: 2,
      partitionIndex: 0,
    });
    expect(await backlogOf(s, `${PATH}-partition-0`, "s")).toBe(1);
    await s.expectStatus(204, "POST", `${sub}/resetcursor/0`);
    expect(await backlogOf(s, `${PATH}-partition-0`, "s")).toBe(3);
    expect(await backlogOf(s, `${PATH}-partition-1`, "s")).toBe(4);
    await s.expectStatus(204, "POST", `${sub}/skip_all`);
    expect(await backlogOf(s, `${PATH}-partition-0`, "s")).toBe(0);
    expect(await backlogOf(s, `${PATH}-partition-1`, "s")).toBe(0);
    await s.expectStatus(204, "DELETE", sub);
    expect(await s.expectStatus(200, "GET", `${PATH}/subscriptions`)).toEqual([]);
    await s.expectStatus(404, "DELETE", sub);
    await s.expectStatus(204, "DELETE", `${PATH}/partitions`);
    expect(await s.expectStatus(200, "GET", "persistent/public/default")).toEqual([]);
  });
});

describe("peek", () => {
  const TOPIC = "persistent://public/default/peeked";
  const PATH = "persistent/public/default/peeked";

  test("the n-th unacknowledged entry: payload as bytes, metadata as X-Pulsar headers; acknowledged entries are skipped", async () => {
    const s = setup();
    const ledger = await s.h.broker.context.ledgers.open(TOPIC);
    const message = (index: number, extra: object = {}): Uint8Array =>
      encodeMessageEntry(
        { producerName: "p", sequenceId: BigInt(index), publishTime: BigInt(BASE_TIME + index), ...extra },
        new TextEncoder().encode(`payload-${String(index)}`),
      );
    await ledger.addEntry(
      message(0, {
        properties: [
          { key: "colour", value: "blue" },
          { key: "bad key", value: "x" },
        ],
      }),
    );
    await ledger.addEntry(message(1, { partitionKey: "k1" }));
    await ledger.addEntry(message(2, { numMessagesInBatch: 3 }));
    await ledger.addEntry(message(3, { compression: 1 }));
    await s.expectStatus(204, "PUT", `${PATH}/subscription/s`, { ledgerId: -1, entryId: -1 });
    const first = await s.call("GET", `${PATH}/subscription/s/position/1`);
    expect(first.status).toBe(200);
    expect(new TextDecoder().decode(first.binary!.bytes)).toBe("payload-0");
    expect(first.binary!.headers).toEqual({
      "X-Pulsar-Message-ID": `${ledger.ledgerId.toString()}:0`,
      "X-Pulsar-publish-time": new Date(BASE_TIME).toISOString(),
      "X-Pulsar-producer-name": "p",
      "X-Pulsar-sequence-id": "0",
      "X-Pulsar-batch-size": "9",
      "X-Pulsar-PROPERTY-colour": "blue",
    });
    await ledger.cursors.get("s")!.individualAck([{ offset: 1 }]);
    const second = await s.call("GET", `${PATH}/subscription/s/position/2`);
    expect(second.binary!.headers).toMatchObject({
      "X-Pulsar-Message-ID": `${ledger.ledgerId.toString()}:2`,
      "X-Pulsar-num-batch-message": "3",
    });
    expect(await s.expectStatus(412, "GET", `${PATH}/subscription/s/position/3`)).toEqual({
      reason: "Compressed messages cannot be peeked through this broker",
    });
    await s.expectStatus(404, "GET", `${PATH}/subscription/s/position/4`);
    await s.expectStatus(400, "GET", `${PATH}/subscription/s/position/0x1`);
    await s.expectStatus(404, "GET", `${PATH}/subscription/other/position/1`);
    await s.expectStatus(204, "PUT", "persistent/public/default/split/partitions", 2);
    await s.expectStatus(204, "PUT", "persistent/public/default/split/subscription/s");
    await s.expectStatus(405, "GET", "persistent/public/default/split/subscription/s/position/1");
  });
});

describe("partitions not created yet", () => {
  test("count as empty in partitioned stats and are created by a subscription, whatever the namespace policy", async () => {
    const s = setup();
    await s.h.broker.context.ledgers.partitionedTopics.create(parseTopicName("public/default/lazy"), 2);
    await s.expectStatus(204, "POST", "namespaces/public/default/autoTopicCreation", { allowAutoTopicCreation: false });
    expect(await s.expectStatus(200, "GET", "persistent/public/default/lazy/partitioned-stats")).toMatchObject({
      storageSize: 0,
      subscriptions: {},
      metadata: { partitions: 2 },
    });
    await s.expectStatus(204, "PUT", "persistent/public/default/lazy/subscription/s");
    expect(await s.expectStatus(200, "GET", "persistent/public/default")).toEqual([
      "persistent://public/default/lazy-partition-0",
      "persistent://public/default/lazy-partition-1",
    ]);
    expect(await s.expectStatus(200, "GET", "persistent/public/default/lazy/subscriptions")).toEqual(["s"]);
  });
});

describe("policies", () => {
  test("namespace deduplication is set, read (also in the namespace's Policies and the topic stats) and removed", async () => {
    const s = setup();
    const path = "namespaces/public/default/deduplication";
    expect(await s.call("GET", path)).toEqual({ status: 204 });
    await s.expectStatus(400, "POST", path, '"yes"');
    await s.expectStatus(404, "POST", "namespaces/public/missing/deduplication", true);
    await s.expectStatus(204, "POST", path, true);
    expect(await s.expectStatus(200, "GET", path)).toBe(true);
    expect(await s.expectStatus(200, "GET", "namespaces/public/default")).toMatchObject({ deduplicationEnabled: true });
    await s.expectStatus(204, "PUT", "persistent/public/default/deduped");
    expect(await s.expectStatus(200, "GET", "persistent/public/default/deduped/stats")).toMatchObject({
      deduplicationStatus: "Enabled",
    });
    await s.expectStatus(204, "POST", "persistent/public/default/deduped/deduplicationEnabled", false);
    expect(await s.expectStatus(200, "GET", "persistent/public/default/deduped/deduplicationEnabled")).toBe(false);
    expect(await s.expectStatus(200, "GET", "persistent/public/default/deduped/stats")).toMatchObject({
      deduplicationStatus: "Disabled",
    });
    await s.expectStatus(204, "DELETE", "persistent/public/default/deduped/deduplicationEnabled");
    expect(
      await s.expectStatus(200, "GET", "persistent/public/default/deduped/deduplicationEnabled?applied=true"),
    ).toBe(true);
    await s.expectStatus(204, "DELETE", path);
    expect(await s.call("GET", path)).toEqual({ status: 204 });
    expect(
      await s.expectStatus(200, "GET", "persistent/public/default/deduped/deduplicationEnabled?applied=true"),
    ).toBe(false);
  });

  test("automatic topic creation: a refused namespace has no subscription-created topics", async () => {
    const s = setup();
    await s.expectStatus(204, "PUT", "tenants/acme");
    await s.expectStatus(204, "PUT", "namespaces/acme/closed");
    const path = "namespaces/acme/closed/autoTopicCreation";
    await s.expectStatus(400, "POST", path, { allowAutoTopicCreation: "no" });
    await s.expectStatus(400, "POST", path, {
      allowAutoTopicCreation: true,
      topicType: "partitioned",
      defaultNumPartitions: 0,
    });
    await s.expectStatus(204, "POST", path, { allowAutoTopicCreation: false });
    expect(await s.expectStatus(200, "GET", path)).toEqual({
      allowAutoTopicCreation: false,
      topicType: "non-partitioned",
    });
    expect(await s.expectStatus(412, "PUT", "persistent/acme/closed/t/subscription/s")).toEqual({
      reason: "Topic does not exist and cannot be auto-created",
    });
    await s.expectStatus(204, "PUT", "persistent/acme/closed/t");
    await s.expectStatus(204, "PUT", "persistent/acme/closed/t/subscription/s");
    await s.expectStatus(204, "POST", path, {
      allowAutoTopicCreation: true,
      topicType: "partitioned",
      defaultNumPartitions: 3,
    });
    expect(await s.expectStatus(200, "GET", "namespaces/acme/closed")).toMatchObject({
      autoTopicCreationOverride: { allowAutoTopicCreation: true, topicType: "partitioned", defaultNumPartitions: 3 },
    });
    await s.expectStatus(204, "DELETE", path);
    expect(await s.call("GET", path)).toEqual({ status: 204 });
  });

  test("storage profiles of new topics come from the topic's, else the namespace's policy", async () => {
    const s = setup();
    const ledgers = s.h.broker.context.ledgers;
    await s.expectStatus(400, "POST", "namespaces/public/default/storageProfile", '"FASTEST"');
    await s.expectStatus(400, "POST", "namespaces/public/default/storageProfile", 3);
    await s.expectStatus(204, "POST", "namespaces/public/default/storageProfile", '"OBJECT_WAL_ASYNC_OBJECT"');
    expect(await s.expectStatus(200, "GET", "namespaces/public/default/storageProfile")).toBe(
      "OBJECT_WAL_ASYNC_OBJECT",
    );
    await s.expectStatus(204, "PUT", "persistent/public/default/from-namespace/partitions", 2);
    const partition = await ledgers.topics.get(parseTopicName("public/default/from-namespace-partition-1"));
    expect(partition?.profile).toBe("OBJECT_WAL_ASYNC_OBJECT");
    await s.expectStatus(204, "POST", "persistent/public/default/own/storageProfile", '"OBJECT_WAL_SYNC_OBJECT"');
    expect(await s.expectStatus(200, "GET", "persistent/public/default/own/storageProfile?applied=true")).toBe(
      "OBJECT_WAL_SYNC_OBJECT",
    );
    await s.expectStatus(204, "PUT", "persistent/public/default/own");
    expect((await ledgers.topics.get(parseTopicName("public/default/own")))?.profile).toBe("OBJECT_WAL_SYNC_OBJECT");
    await s.expectStatus(204, "DELETE", "persistent/public/default/own");
    expect(await s.call("GET", "persistent/public/default/own/storageProfile")).toEqual({ status: 204 });
  });

  test("connected producers are listed as publishers and keep a topic from deletion without force", async () => {
    const s = setup();
    await s.expectStatus(204, "PUT", "persistent/public/default/busy");
    const producer = s.h.connect();
    await producer.handshake();
    producer.send({
      type: "PRODUCER",
      body: { topic: "persistent://public/default/busy", producerId: 1n, requestId: 1n, producerName: "writer-1" },
    });
    await producer.waitFor("PRODUCER_SUCCESS");
    expect(await s.expectStatus(200, "GET", "persistent/public/default/busy/stats")).toMatchObject({
      publishers: [{ producerName: "writer-1" }],
    });
    expect(await s.expectStatus(412, "DELETE", "persistent/public/default/busy")).toEqual({
      reason: "Topic has active producers/subscriptions",
    });
    await s.expectStatus(204, "DELETE", "persistent/public/default/busy?force=true");
  });
});
