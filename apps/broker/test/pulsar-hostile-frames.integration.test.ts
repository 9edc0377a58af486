// The broker's Pulsar listener under a stream of hostile frames, spoken on raw sockets (loopback only, every wait
// bounded). 400 connections, 20 at a time, each send a valid CONNECT, PRODUCER and SUBSCRIBE, then 320 mutated frames
// from a seeded generator — mostly soft (unchanged, flipped entry bytes, bad checksums), rarely hard (flipped bytes
// anywhere, truncations, wrong size fields, unknown command types, garbage) — and a final unknown command; at least
// 100,000 mutated frames reach open sockets. Every connection must be closed by the broker within the frame timeout
// plus slack (never left hanging), the broker stays up, and meanwhile a pulsar-flex consumer and producer on their
// own topic exchange 200 messages byte-identical. At the end /healthz answers 200, a fresh raw connection is answered
// CONNECTED, and the broker logged nothing at error level.
import { randomBytes } from "node:crypto";
import { PulsarFrameDecoder, decodeFrame } from "@nereus/pulsar/protocol";
// @ts-expect-error pulsar-flex ships no type declarations
import { Consumer, Producer, logLevel } from "pulsar-flex";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { waitFor } from "./support/kafkajs-fixture.js";
import {
  CONNECT_FRAME,
  type FuzzTarget,
  type MutationName,
  SeededRandom,
  mutateFrame,
  openingFrames,
  unknownCommandFrame,
} from "./support/pulsar-frame-mutator.js";
import { RawPulsarSocket } from "./support/raw-pulsar-socket.js";

const SEED = 0x5eed_f00d;
const CONNECTIONS = 400;
const FRAMES_PER_CONNECTION = 320;
/** Chance that a mutated frame is a hard one (breaks framing or command): a connection reads on for a while. */
const HARD_RATE = 1 / 300;
const FRAMES_PER_WRITE = 16;
const CONCURRENCY = 20;
const FRAME_TIMEOUT_MS = 500;
const CLOSE_WITHIN_MS = FRAME_TIMEOUT_MS + 10_000;
const HOSTILE_TOPICS = 8;

interface FlexMessage {
  readonly message: Buffer;
  ack(): Promise<void>;
}

/** What the fuzzing connections did. */
interface FuzzTally {
  /** Mutated frames generated. */
  generated: number;
  /** Mutated frames written while the socket was open. */
  frames: number;
  /** Connections answered CONNECTED and PRODUCER_SUCCESS before their mutated frames went out. */
  opened: number;
  connections: number;
  closedByBroker: number;
  hung: number;
  /** Mutated frames that a client-side decoder reads as well-formed before the first one it cannot split or decode. */
  decodableBeforeFirstFault: number;
  readonly mutations: Map<MutationName, number>;
  readonly replies: Map<string, number>;
}

let running: InProcessBroker;
let pulsarPort: number;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  running = await startInProcess(
    testConfig("embedded", {
      cluster: "pulsar-hostile",
      overrides: {
        pulsar: { enabled: true, port: 0 },
        connections: { requestFrameTimeoutMs: FRAME_TIMEOUT_MS },
      },
    }),
  );
  pulsarPort = running.broker.pulsarPort!;
});

afterAll(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  await running.broker.close();
});

/**
 * Frames that a decoder like the broker's splits and decodes before the first fault: an upper bound of the frames the
 * broker handles on that connection.
 */
function decodablePrefix(frames: readonly Uint8Array[]): number {
  const decoder = new PulsarFrameDecoder();
  let decoded = 0;
  try {
    for (const frame of frames) {
      for (const split of decoder.push(frame)) {
        decodeFrame(split);
        decoded += 1;
      }
    }
  } catch {
    // The first fault ends what the broker can read.
  }
  return decoded;
}

async function fuzzOneConnection(index: number, random: SeededRandom, tally: FuzzTally): Promise<void> {
  const target: FuzzTarget = {
    topic: `persistent://public/default/hostile-${String(index % HOSTILE_TOPICS)}`,
    producerId: BigInt(1 + random.below(3)),
    consumerId: BigInt(1 + random.below(3)),
  };
  const mutated: Uint8Array[] = [];
  for (let count = 0; count < FRAMES_PER_CONNECTION; count += 1) {
    const { mutation, bytes } = mutateFrame(random, target, HARD_RATE);
    tally.mutations.set(mutation, (tally.mutations.get(mutation) ?? 0) + 1);
    mutated.push(bytes);
  }
  tally.generated += mutated.length;
  const opening = [CONNECT_FRAME, ...openingFrames(target)];
  tally.decodableBeforeFirstFault += Math.max(0, decodablePrefix([...opening, ...mutated]) - opening.length);
  const client = await RawPulsarSocket.connect(pulsarPort);
  tally.connections += 1;
  try {
    await client.write(Buffer.concat(opening));
    await waitFor(
      "answers to CONNECT, PRODUCER and SUBSCRIBE",
      () => client.frameCount >= 3 || client.isClosed,
      10_000,
    );
    if (client.count("CONNECTED") === 1 && client.count("PRODUCER_SUCCESS") === 1) tally.opened += 1;
    for (let from = 0; from < mutated.length && !client.isClosed; from += FRAMES_PER_WRITE) {
      const chunk = mutated.slice(from, from + FRAMES_PER_WRITE);
      await client.write(Buffer.concat(chunk));
      if (!client.isClosed) tally.frames += chunk.length;
    }
    await client.write(unknownCommandFrame(4_242));
    if (await client.closedWithin(CLOSE_WITHIN_MS)) tally.closedByBroker += 1;
    else tally.hung += 1;
    for (const [type, count] of client.received) tally.replies.set(type, (tally.replies.get(type) ?? 0) + count);
  } finally {
    client.destroy();
  }
}

async function fuzz(): Promise<FuzzTally> {
  const tally: FuzzTally = {
    generated: 0,
    frames: 0,
    opened: 0,
    connections: 0,
    closedByBroker: 0,
    hung: 0,
    decodableBeforeFirstFault: 0,
    mutations: new Map(),
    replies: new Map(),
  };
  for (let wave = 0; wave < CONNECTIONS / CONCURRENCY; wave += 1) {
    // One generator per connection, derived from the seed and its index: the frames do not depend on timing.
    const indexes = Array.from({ length: CONCURRENCY }, (_, offset) => wave * CONCURRENCY + offset);
    await Promise.all(indexes.map((index) => fuzzOneConnection(index, new SeededRandom(SEED + index), tally)));
  }
  return tally;
}

/** The well-behaved side: a pulsar-flex consumer on its own topic, and a producer to run later. */
interface WellBehaved {
  readonly received: Buffer[];
  /** Sends `count` messages one at a time, spread over the fuzzing; resolves with what was sent once all arrived. */
  produce(count: number): Promise<Buffer[]>;
}

/**
 * Subscribes a pulsar-flex consumer (acking each message and waiting for the ACK_RESPONSE) on a new topic. It runs
 * before any hostile connection: pulsar-flex reads ledger ids as JS numbers, so its acks only name the right ledger
 * when the topic's virtual ledger id is exactly representable — as the first one a fresh cluster hands out, 2^62, is.
 */
async function wellBehavedSubscription(): Promise<WellBehaved> {
  const server = `127.0.0.1:${String(pulsarPort)}`;
  const topic = `persistent://public/default/well-behaved-${randomBytes(4).toString("hex")}`;
  const consumer = new Consumer({
    topic,
    subscription: "well-behaved",
    subType: Consumer.SUB_TYPES.EXCLUSIVE,
    consumerName: "well-behaved",
    discoveryServers: [server],
    receiveQueueSize: 100,
    logLevel: logLevel.NOTHING,
  });
  await consumer.subscribe();
  closers.push(() => consumer.unsubscribe());
  const received: Buffer[] = [];
  await consumer.run({
    autoAck: false,
    onMessage: async ({ message, ack }: FlexMessage) => {
      received.push(Buffer.from(message));
      await ack();
    },
  });
  const produce = async (count: number): Promise<Buffer[]> => {
    const producer = new Producer({ topic, discoveryServers: [server], logLevel: logLevel.NOTHING });
    await producer.create();
    closers.push(() => producer.close());
    const sent = Array.from({ length: count }, (_, index) =>
      Buffer.concat([Buffer.from(`m${String(index)}:`), randomBytes(48)]),
    );
    for (const payload of sent) {
      await producer.sendMessage({ payload });
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await waitFor(`${String(count)} well-behaved messages`, () => received.length >= count);
    return sent;
  };
  return { received, produce };
}

/** Sends a valid CONNECT on a fresh raw connection and resolves with whether CONNECTED came back. */
async function answersConnect(): Promise<boolean> {
  const client = await RawPulsarSocket.connect(pulsarPort);
  try {
    await client.write(CONNECT_FRAME);
    await waitFor("CONNECTED", () => client.count("CONNECTED") > 0 || client.isClosed);
    return client.count("CONNECTED") === 1;
  } finally {
    client.destroy();
  }
}

describe("the Pulsar listener under hostile frames", () => {
  test("100,000 mutated frames on 400 connections each end in a closed socket while pulsar-flex keeps working", async () => {
    const exchange = await wellBehavedSubscription();
    const [tally, sent] = await Promise.all([fuzz(), exchange.produce(200)]);
    const summary = {
      ...tally,
      mutations: Object.fromEntries(tally.mutations),
      replies: Object.fromEntries(tally.replies),
    };
    if (process.env.NEREUS_TEST_PRINT_FUZZ === "1") console.log(JSON.stringify(summary, undefined, 2));

    expect(tally.generated).toBe(CONNECTIONS * FRAMES_PER_CONNECTION);
    expect(tally.frames).toBeGreaterThanOrEqual(100_000);
    expect(tally.connections).toBe(CONNECTIONS);
    expect(tally.opened).toBe(CONNECTIONS);
    expect(tally.hung, JSON.stringify(summary)).toBe(0);
    expect(tally.closedByBroker).toBe(CONNECTIONS);
    expect(exchange.received).toEqual(sent);

    const health = await fetch(`http://127.0.0.1:${String(running.broker.adminPort)}/healthz`);
    expect(health.status).toBe(200);
    expect(await answersConnect()).toBe(true);
    const severe = running.logs.filter((line) => /"level":"(error|fatal)"/.test(line));
    expect(severe, severe.join("\n")).toEqual([]);
  }, 120_000);
});
