import { ErrorCode, NereusError, type StreamStore } from "@nereus/core";
import { InMemoryMetadataStore } from "@nereus/core/testing";
import { afterEach, describe, expect, it } from "vitest";
import type { BrokerLogger } from "../logging/broker-logger.js";
import { BrokerMembership } from "./broker-membership.js";
import { ClusterKeys } from "./cluster-keys.js";
import { ClusterOwnership } from "./cluster-ownership.js";

const SILENT: BrokerLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const TOPIC = "0b7c5e2a-6a55-4d3e-9d8e-1c1f2a3b4c5d";
const PARTITIONS = 24;

interface Node {
  readonly nodeId: number;
  readonly membership: BrokerMembership;
  readonly ownership: ClusterOwnership;
  readonly sessions: string[];
  readonly released: number[];
  /** Added to the store's clock in this node's view of time. */
  skewMs: number;
}

const started: Node[] = [];

afterEach(async () => {
  for (const node of started.splice(0)) await node.membership.close();
});

async function startNode(metadata: InMemoryMetadataStore, nodeId: number): Promise<Node> {
  const keys = new ClusterKeys("unit");
  const node: Partial<Node> & { skewMs: number } = { skewMs: 0 };
  const membership = new BrokerMembership({
    metadata,
    keys,
    leaseTtlMs: 2_000,
    logger: SILENT,
    clock: () => Date.now() + node.skewMs,
  });
  const sessions: string[] = [];
  // The stream store's part in a claim: taking the append session (recorded; the streams do not exist here).
  const store = {
    acquireSession: (streamId: string, options: { preempt?: boolean }) => {
      sessions.push(`${streamId}:${String(options.preempt)}`);
      return Promise.reject(new NereusError(ErrorCode.STREAM_NOT_FOUND, streamId, { retryable: false }));
    },
  } as unknown as StreamStore;
  const ownership = new ClusterOwnership({ membership, metadata, store, keys, logger: SILENT });
  const released: number[] = [];
  ownership.setReleaseListener({
    partitionReleased: (_topic, partition) => released.push(partition),
    groupReleased: () => undefined,
  });
  await membership.start({
    nodeId,
    kafka: { host: "127.0.0.1", port: 9090 + nodeId },
    pulsar: { host: "127.0.0.1", port: 6650 + nodeId },
    pulsarTls: { host: "127.0.0.1", port: 7650 + nodeId },
  });
  Object.assign(node, { nodeId, membership, ownership, sessions, released });
  started.push(node as Node);
  return node as Node;
}

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("ClusterOwnership", () => {
  it("agrees on owners, lets only the owner claim, and hands over when a broker leaves", async () => {
    const metadata = new InMemoryMetadataStore();
    const one = await startNode(metadata, 1);
    const two = await startNode(metadata, 2);
    await until("both brokers live on both", () =>
      [one, two].every((node) => node.ownership.liveBrokers().length === 2),
    );
    expect(one.ownership.controllerId()).toBe(1);
    const leaders = Array.from({ length: PARTITIONS }, (_, partition) =>
      one.ownership.partitionLeader(TOPIC, partition),
    );
    expect(
      Array.from({ length: PARTITIONS }, (_, partition) => two.ownership.partitionLeader(TOPIC, partition)),
    ).toEqual(leaders);
    expect(new Set(leaders)).toEqual(new Set([1, 2]));

    for (let partition = 0; partition < PARTITIONS; partition += 1) {
      const [owner, other] = leaders[partition] === 1 ? [one, two] : [two, one];
      expect(await other.ownership.claimPartition(TOPIC, partition)).toBe(false);
      expect(await owner.ownership.claimPartition(TOPIC, partition)).toBe(true);
      expect(owner.ownership.holdsPartition(TOPIC, partition)).toBe(true);
      expect(other.ownership.holdsPartition(TOPIC, partition)).toBe(false);
    }
    // Every claim took the append session with a new epoch, once.
    expect(one.sessions.length + two.sessions.length).toBe(PARTITIONS);
    expect([...one.sessions, ...two.sessions].every((session) => session.endsWith(":true"))).toBe(true);

    const groupOwner = one.ownership.coordinatorOf("orders")?.nodeId;
    expect(two.ownership.coordinatorOf("orders")?.nodeId).toBe(groupOwner);

    // Broker 2 drains: it forgets its partitions at once, names broker 1 as the owner of everything and claims
    // nothing more, while broker 1 does not claim before broker 2 is gone.
    const held = leaders.filter((leader) => leader === 2).length;
    const drained = leaders.indexOf(2);
    await two.ownership.drain();
    expect(two.released).toHaveLength(held);
    expect(two.ownership.holdsPartition(TOPIC, drained)).toBe(false);
    expect(await two.ownership.claimPartition(TOPIC, drained)).toBe(false);
    expect(two.ownership.partitionLeader(TOPIC, drained)).toBe(1);
    expect(two.ownership.coordinatorOf("orders")?.nodeId).toBe(1);
    expect(await one.ownership.claimPartition(TOPIC, drained)).toBe(false);
    await two.membership.close();
    await until("broker 1 alone", () => one.ownership.liveBrokers().length === 1);
    for (let partition = 0; partition < PARTITIONS; partition += 1) {
      expect(one.ownership.partitionLeader(TOPIC, partition)).toBe(1);
      expect(await one.ownership.claimPartition(TOPIC, partition)).toBe(true);
    }
    expect(one.released).toEqual([]);
  });

  it("names one owner per Pulsar topic partition, the others point at its URL, a draining broker owns none", async () => {
    const metadata = new InMemoryMetadataStore();
    const one = await startNode(metadata, 1);
    const two = await startNode(metadata, 2);
    await until("both brokers live on both", () =>
      [one, two].every((node) => node.ownership.liveBrokers().length === 2),
    );
    const topics = Array.from({ length: 16 }, (_, index) => `persistent://public/default/t-partition-${String(index)}`);
    const owners = topics.map((topic) => {
      const owning = [one, two].filter((node) => node.ownership.ownsTopic(topic));
      expect(owning).toHaveLength(1);
      const other = owning[0] === one ? two : one;
      expect(other.ownership.ownerUrls(topic)).toEqual({
        url: `pulsar://127.0.0.1:${String(6650 + owning[0]!.nodeId)}`,
        urlTls: `pulsar+ssl://127.0.0.1:${String(7650 + owning[0]!.nodeId)}`,
      });
      return owning[0]!.nodeId;
    });
    expect(new Set(owners)).toEqual(new Set([1, 2]));
    await two.ownership.drain();
    for (const topic of topics) {
      expect(two.ownership.ownsTopic(topic)).toBe(false);
      expect(two.ownership.ownerUrls(topic)).toEqual({
        url: "pulsar://127.0.0.1:6651",
        urlTls: "pulsar+ssl://127.0.0.1:7651",
      });
    }
  });

  it("stops holding anything once its own lease may have lapsed", async () => {
    const metadata = new InMemoryMetadataStore();
    const one = await startNode(metadata, 1);
    await until("broker 1 live", () => one.ownership.liveBrokers().length === 1);
    expect(await one.ownership.claimPartition(TOPIC, 0)).toBe(true);
    expect(await one.ownership.claimGroup("orders")).toBe(true);
    // In this broker's view of time the lease is past its validity: it holds nothing, even before a renewal runs.
    one.skewMs = 10_000;
    expect(one.ownership.holdsPartition(TOPIC, 0)).toBe(false);
    expect(one.ownership.holdsGroup("orders")).toBe(false);
    expect(await one.ownership.claimPartition(TOPIC, 1)).toBe(false);
  });
});
