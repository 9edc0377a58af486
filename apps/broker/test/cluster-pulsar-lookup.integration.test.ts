// Pulsar topic discovery in a three-broker cluster (in this process, membership on, etcd + s3proxy): LOOKUP of a
// topic partition answers Connect from its owner and Redirect (authoritative) to the owner's URL from each other
// broker, the same owner on every broker; PARTITIONED_METADATA answers from every broker. The Java Pulsar client
// given a broker that does not own every partition follows the redirects: a producer sends keyed messages to every
// partition and a consumer, given yet another broker, receives every message. When the owner of a partition
// closes, LOOKUP names a survivor.
import net from "node:net";
import { randomBytes } from "node:crypto";
import {
  type DecodedFrame,
  LookupOutcome,
  type PulsarCommand,
  PulsarFrameDecoder,
  decodeFrame,
  encodeCommandFrame,
} from "@nereus/pulsar/protocol";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import {
  JavaPulsarDriver,
  createPartitionedTopic,
  receivedMessages,
  sentMessages,
} from "./support/java-pulsar-driver.js";

const PARTITIONS = 3;
const COUNT = 300;

let driver: JavaPulsarDriver | undefined;
const running: InProcessBroker[] = [];

beforeAll(async () => {
  driver = await JavaPulsarDriver.compile();
}, 300_000);
afterAll(() => driver?.dispose());
afterEach(async () => {
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Sends CONNECT and then `command` to the Pulsar port; resolves with the answer to `command`. */
async function ask(port: number, command: PulsarCommand): Promise<DecodedFrame["command"]> {
  const socket = net.connect({ host: "127.0.0.1", port });
  const decoder = new PulsarFrameDecoder();
  const frames: DecodedFrame[] = [];
  socket.on("data", (chunk: Buffer) => frames.push(...decoder.push(chunk).map((frame) => decodeFrame(frame))));
  socket.on("error", () => undefined);
  try {
    socket.write(encodeCommandFrame({ type: "CONNECT", body: { clientVersion: "lookup-test", protocolVersion: 21 } }));
    socket.write(encodeCommandFrame(command));
    const deadline = Date.now() + 15_000;
    for (;;) {
      const answer = frames.find((frame) => frame.command.type !== "CONNECTED");
      if (answer !== undefined) return answer.command;
      if (Date.now() > deadline) throw new Error(`no answer to ${command.type}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    socket.destroy();
  }
}

interface Lookup {
  readonly response: number | undefined;
  readonly url: string | undefined;
  readonly authoritative: boolean | undefined;
}

async function lookup(port: number, topic: string): Promise<Lookup> {
  const answer = await ask(port, { type: "LOOKUP", body: { topic, requestId: 7n } });
  if (answer.type !== "LOOKUP_RESPONSE") throw new Error(`LOOKUP answered ${answer.type}`);
  return {
    response: answer.body.response,
    url: answer.body.brokerServiceUrl,
    authoritative: answer.body.authoritative,
  };
}

const urlOf = (broker: InProcessBroker): string => `pulsar://127.0.0.1:${String(broker.broker.pulsarPort)}`;

/** The owner of `topic` as every broker of `brokers` answers it (each answer checked against the protocol). */
async function ownerOf(brokers: readonly InProcessBroker[], topic: string): Promise<InProcessBroker | undefined> {
  const answers = await Promise.all(brokers.map((broker) => lookup(broker.broker.pulsarPort!, topic)));
  const owners = brokers.filter((_, index) => answers[index]?.response === LookupOutcome.Connect);
  if (owners.length !== 1) return undefined;
  const owner = owners[0]!;
  for (const [index, answer] of answers.entries()) {
    const expected = brokers[index] === owner ? LookupOutcome.Connect : LookupOutcome.Redirect;
    if (answer.response !== expected || answer.url !== urlOf(owner) || answer.authoritative !== true) return undefined;
  }
  return owner;
}

describe("Pulsar lookups in a three-broker cluster", () => {
  test("LOOKUP redirects to each partition's owner; the Java client follows the redirects", async () => {
    const cluster = `l${randomBytes(5).toString("hex")}`;
    for (const nodeId of [1, 2, 3]) {
      running.push(
        await startInProcess(
          testConfig("cluster", { cluster, overrides: { nodeId, membership: { enabled: true, leaseTtlMs: 3_000 } } }),
        ),
      );
    }
    const topic = `persistent://public/default/lookup-${randomBytes(4).toString("hex")}`;
    await createPartitionedTopic(running[0]!.broker.adminPort!, topic, PARTITIONS);
    const partitions = Array.from({ length: PARTITIONS }, (_, index) => `${topic}-partition-${String(index)}`);
    const owners = await waitFor("every broker to name the same owner of every partition", async () => {
      const found = await Promise.all(partitions.map((partition) => ownerOf(running, partition)));
      return found.every((owner) => owner !== undefined) ? (found as InProcessBroker[]) : undefined;
    });
    for (const broker of running) {
      const metadata = await ask(broker.broker.pulsarPort!, {
        type: "PARTITIONED_METADATA",
        body: { topic, requestId: 9n },
      });
      expect(metadata.type === "PARTITIONED_METADATA_RESPONSE" ? metadata.body.partitions : undefined).toBe(PARTITIONS);
    }

    // The producer starts at a broker that does not own partition 0, the consumer at another one.
    const producerAt = running.find((broker) => broker !== owners[0])!;
    const consumerAt = running.find((broker) => broker !== producerAt)!;
    const consuming = driver!.spawn(
      "consume",
      { url: urlOf(consumerAt), topic, sub: "lookup", count: COUNT, settleMs: 500 },
      120_000,
    );
    await waitFor(
      "the consumer to subscribe",
      () => Promise.resolve(consuming.lines.includes("SUBSCRIBED") ? true : undefined),
      90_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}: ${consuming.lines.join("; ")} ${consuming.stderr().slice(-3_000)}`);
    });
    const lines = await driver!.run("produce", { url: urlOf(producerAt), topic, count: COUNT, keys: 30 }, 120_000);
    expect(lines.filter((line) => line.startsWith("SENDFAIL"))).toEqual([]);
    const sent = sentMessages(lines);
    expect(sent).toHaveLength(COUNT);
    expect(new Set(sent.map((message) => message.partition))).toEqual(new Set([0, 1, 2]));
    expect(await consuming.exited).toBe(0);
    const received = receivedMessages(consuming.lines);
    expect(new Set(received.map((message) => message.index))).toEqual(new Set(sent.map((message) => message.index)));

    // The owner of partition 0 closes: the survivors name one of themselves.
    const leaving = owners[0]!;
    await leaving.broker.close("leaving");
    running.splice(running.indexOf(leaving), 1);
    const successor = await waitFor("a survivor to own partition 0", () => ownerOf(running, partitions[0]!));
    expect(successor).not.toBe(leaving);
  }, 240_000);
});
