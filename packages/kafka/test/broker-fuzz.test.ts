// Broker fuzz: more than 100,000 mutated request frames (bit flips, byte overwrites, truncation, insertion,
// deletion, hostile int32 lengths) built from real-client captures, well-formed requests against existing topics
// (valid record batches included) and random schema bodies of every advertised API version, sent through
// openConnection().handleFrame on many connections at once. Every frame must resolve (with a response frame that
// decodes for its API and version, or nothing) or reject with NereusError(DECODE_ERROR) — the listener's cue to
// close that connection. No handler may fail, and a connection producing and fetching throughout must see exactly
// its own records at dense offsets: other connections are unaffected and the broker stays up.
import fs from "node:fs";
import path from "node:path";
import { ErrorCode, NereusError } from "@nereus/core";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createGroupCoordinator } from "../src/groups/group-coordinator.js";
import { decodeResponse, encodeRequest } from "../src/protocol/encode-request.js";
import { SUPPORTED_APIS, type SupportedApiKey } from "../src/protocol/supported-apis.js";
import { readRecordBatchHeader } from "../src/protocol/records/record-batch-header.js";
import { splitRecordBatches } from "../src/protocol/records/split-record-batches.js";
import { BrokerHarness, batchOf, createTopicsBody, fetchBody, produceBody } from "./broker-harness.js";
import { loadClientFixture } from "./client-fixtures.js";
import { messageArbitrary } from "./schema-arbitrary.js";
import { InMemoryMetadataStore, MemoryWalProvider } from "@nereus/core/testing";

const MUTATED_FRAMES = 100_000;
const LANES = 48;
/** Frames (over all lanes) between two yields of a lane to the event loop. */
const YIELD_EVERY = 64;

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** xorshift32: fast, seeded, reproducible. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

function mutate(frame: Uint8Array, next: () => number): Uint8Array {
  const pick = (limit: number): number => Math.floor(next() * limit);
  let bytes = frame.slice();
  const mutations = 1 + pick(3);
  for (let count = 0; count < mutations; count += 1) {
    // Keep api key and version intact most of the time so bodies get decoded and handled.
    const from = next() < 0.9 ? Math.min(4, bytes.length) : 0;
    const at = from + pick(Math.max(1, bytes.length - from));
    switch (pick(6)) {
      case 0:
        if (at < bytes.length) bytes[at] = (bytes[at] ?? 0) ^ (1 << pick(8));
        break;
      case 1:
        if (at < bytes.length) bytes[at] = pick(256);
        break;
      case 2:
        bytes = bytes.slice(0, at);
        break;
      case 3: {
        const inserted = Uint8Array.from({ length: 1 + pick(6) }, () => pick(256));
        bytes = new Uint8Array([...bytes.subarray(0, at), ...inserted, ...bytes.subarray(at)]);
        break;
      }
      case 4:
        bytes = new Uint8Array([...bytes.subarray(0, at), ...bytes.subarray(at + 1 + pick(6))]);
        break;
      default:
        if (at + 4 <= bytes.length)
          new DataView(bytes.buffer).setUint32(
            at,
            [0x7fffffff, 0xffffffff, 0x80000000, 0xfffffffe, 0x0000ffff][pick(5)] ?? 0,
          );
    }
  }
  return bytes;
}

function corpus(): Uint8Array[] {
  const frames: Uint8Array[] = [];
  const add = <K extends SupportedApiKey>(apiKey: K, apiVersion: number, body: unknown): void => {
    frames.push(encodeRequest({ apiKey, apiVersion, correlationId: 1, clientId: "fuzz" }, body as never).subarray(4));
  };
  const dir = path.resolve(import.meta.dirname, "fixtures");
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith(".hex"))) {
    for (const { frame } of loadClientFixture(file.replace(/\.hex$/, "")).frames) frames.push(frame);
  }
  for (let version = 3; version <= 11; version += 1) {
    add(0, version, produceBody("fuzz", version % 2, batchOf(["a", "b"])));
    add(
      0,
      version,
      produceBody("fuzz", 0, batchOf(["idem"], { producerId: 1n, producerEpoch: 0, baseSequence: version })),
    );
  }
  for (let version = 4; version <= 12; version += 1)
    add(
      1,
      version,
      fetchBody(
        [
          { topic: "fuzz", partition: 0, offset: 0 },
          { topic: "fuzz", partition: 1, offset: 1 },
        ],
        { maxWaitMs: 2 },
      ),
    );
  for (let version = 1; version <= 10; version += 1) {
    add(2, version, {
      replicaId: -1,
      isolationLevel: 0,
      topics: [
        { name: "fuzz", partitions: [{ partitionIndex: 0, currentLeaderEpoch: -1, timestamp: -2, maxNumOffsets: 1 }] },
      ],
      timeoutMs: 0,
    });
  }
  for (let version = 0; version <= 12; version += 1) {
    add(3, version, {
      topics: [{ topicId: "00000000-0000-0000-0000-000000000000", name: "fuzz" }],
      allowAutoTopicCreation: true,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    });
  }
  for (let version = 2; version <= 7; version += 1)
    add(
      19,
      version,
      createTopicsBody([
        { name: `fuzz-created-${String(version)}`, partitions: 2, configs: { "retention.ms": "1000" } },
      ]),
    );
  for (let version = 1; version <= 4; version += 1)
    add(32, version, {
      resources: [{ resourceType: 2, resourceName: "fuzz", configurationKeys: null }],
      includeSynonyms: true,
      includeDocumentation: false,
    });
  for (const api of Object.values(SUPPORTED_APIS)) {
    for (let version = api.minVersion; version <= api.maxVersion; version += 1) {
      for (const body of fc.sample(messageArbitrary(api.request, version), {
        numRuns: 2,
        seed: api.apiKey * 100 + version,
      }))
        add(api.apiKey as SupportedApiKey, version, body);
    }
  }
  return frames;
}

function expectedResponseVersion(frame: Uint8Array): { apiKey: SupportedApiKey; apiVersion: number } | undefined {
  if (frame.length < 4) return undefined;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const apiKey = view.getInt16(0);
  const apiVersion = view.getInt16(2);
  const api = Object.values(SUPPORTED_APIS).find((candidate) => candidate.apiKey === apiKey);
  if (api === undefined) return undefined;
  // An ApiVersions request of a version the broker does not know is answered in v0.
  return {
    apiKey: apiKey as SupportedApiKey,
    apiVersion: apiKey === 18 && (apiVersion < 0 || apiVersion > 4) ? 0 : apiVersion,
  };
}

let harness: BrokerHarness;

beforeAll(async () => {
  const metadata = new InMemoryMetadataStore();
  const coordinator = createGroupCoordinator({
    metadata,
    cluster: "kafka-test",
    nodeId: 1,
    host: "127.0.0.1",
    port: 9092,
    initialRebalanceDelayMs: 0,
  });
  harness = new BrokerHarness(
    { groupHandlers: coordinator.handlers, maxFetchWaitMs: 2, maxPartitionsPerTopic: 4 },
    {},
    { metadata, objectWal: new MemoryWalProvider({ walKind: "OBJECT" }) },
  );
  const client = harness.connect();
  await client.createTopic("fuzz", 2);
  await client.createTopic("healthy", 1);
});

afterAll(async () => {
  await harness.close();
});

describe("broker fuzz", () => {
  test(`${String(MUTATED_FRAMES)} mutated frames: only responses or DECODE_ERROR closures; the broker and other connections carry on`, async () => {
    const seeds = corpus();
    expect(seeds.length).toBeGreaterThan(300);
    const unexpected: string[] = [];
    const outcomes = { responses: 0, silent: 0, closures: 0 };
    let sent = 0;

    const lane = async (seed: number): Promise<void> => {
      const next = random(seed);
      let connection = harness.broker.openConnection(`fuzz-${String(seed)}`);
      while (sent < MUTATED_FRAMES) {
        sent += 1;
        // The in-memory stores answer in microtasks: give timers (long polls) and the healthy client their turns.
        if (sent % YIELD_EVERY === 0) await yieldToEventLoop();
        const frame = mutate(seeds[Math.floor(next() * seeds.length)] ?? new Uint8Array(), next);
        try {
          const response = await connection.handleFrame(frame);
          if (response === undefined) {
            outcomes.silent += 1;
            continue;
          }
          outcomes.responses += 1;
          const size = new DataView(response.buffer, response.byteOffset).getInt32(0);
          const target = expectedResponseVersion(frame);
          if (size !== response.length - 4 || target === undefined)
            throw new Error(`bad response frame for ${String(target?.apiKey)}`);
          decodeResponse(target, response.subarray(4));
        } catch (error) {
          if (NereusError.hasCode(error, ErrorCode.DECODE_ERROR)) {
            outcomes.closures += 1;
            connection.close();
            connection = harness.broker.openConnection(`fuzz-${String(seed)}`);
          } else if (unexpected.length < 20) {
            unexpected.push(`${String(error)} for frame ${Buffer.from(frame).toString("hex").slice(0, 200)}`);
          }
        }
      }
      connection.close();
    };

    // A well-behaved client producing and fetching on its own topic the whole time.
    let fuzzing = true;
    const healthy = (async () => {
      const client = harness.connect();
      let expectedOffset = 0;
      while (fuzzing) {
        const produced = await client.produce("healthy", 0, batchOf([`h${String(expectedOffset)}`]));
        expect(produced).toMatchObject({ errorCode: 0, baseOffset: expectedOffset });
        const fetched = await client.fetch("healthy", 0, expectedOffset);
        expect(fetched?.highWatermark).toBe(expectedOffset + 1);
        expect(
          splitRecordBatches(fetched?.records ?? new Uint8Array()).batches.map(
            (batch) => readRecordBatchHeader(batch).baseOffset,
          ),
        ).toEqual([expectedOffset]);
        expectedOffset += 1;
        // Like a client on a socket: wait for the event loop between requests, so a chain of microtasks never
        // starves the timers a fuzzed long poll waits on.
        await yieldToEventLoop();
      }
      return expectedOffset;
    })();

    await Promise.all(Array.from({ length: LANES }, (_, index) => lane(index + 1)));
    fuzzing = false;
    const healthyRounds = await healthy;

    expect(unexpected).toEqual([]);
    expect(outcomes.responses + outcomes.silent + outcomes.closures).toBeGreaterThanOrEqual(MUTATED_FRAMES);
    expect(outcomes.responses).toBeGreaterThan(MUTATED_FRAMES / 10);
    expect(outcomes.closures).toBeGreaterThan(MUTATED_FRAMES / 10);
    expect(healthyRounds).toBeGreaterThan(10);
    expect(harness.errors().map((event) => `${event.message} ${JSON.stringify(event.fields)}`.slice(0, 500))).toEqual(
      [],
    );

    // The broker is still up for a new client.
    const client = harness.connect();
    expect((await client.request(18, 3, { clientSoftwareName: "after", clientSoftwareVersion: "1" })).errorCode).toBe(
      0,
    );
    expect(await client.produce("healthy", 0, batchOf(["after"]))).toMatchObject({
      errorCode: 0,
      baseOffset: healthyRounds,
    });
  }, 300_000);
});
