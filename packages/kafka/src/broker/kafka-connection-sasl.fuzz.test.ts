// Fuzz of the SASL state machine of a connection: exchanges whose SaslHandshake / SaslAuthenticate frames and SCRAM
// or PLAIN messages are mutated (bit flips, byte changes, truncations, insertions, deletions, API key and version
// changes), sent by a client that does not know the password. After every exchange a Heartbeat must be refused
// (the connection closes) without reaching its handler, nothing may throw anything but the closing error, and no
// handler may fail. Honest exchanges with the right password are mixed in and must succeed. Seeded, reproducible.
import { createHmac, createHash, pbkdf2Sync } from "node:crypto";
import { ErrorCode, NereusError } from "@nereus/core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { BrokerHarness } from "../../test/broker-harness.js";
import { SASL_TRANSPORT, upsertion } from "../../test/sasl-harness.js";
import type { KafkaConnection } from "./kafka-connection.js";
import { decodeResponse, encodeRequest } from "../protocol/encode-request.js";

const SEED = 0x5a51;
const MIN_FRAMES = 100_000;
const PASSWORD = "the-right-password-0123456789";
const WRONG = "guess";
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** xorshift32: a small seeded generator. */
class Random {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0 || 1;
  }
  next(): number {
    let x = this.#state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#state = x >>> 0;
    return this.#state;
  }
  below(bound: number): number {
    return this.next() % bound;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)]!;
  }
}

function mutate(random: Random, input: Uint8Array): Uint8Array {
  let bytes = Uint8Array.from(input);
  const operations = 1 + random.below(3);
  for (let step = 0; step < operations; step += 1) {
    const at = bytes.length === 0 ? 0 : random.below(bytes.length);
    switch (random.below(7)) {
      case 0:
        if (bytes.length > 0) bytes[at]! ^= 1 << random.below(8);
        break;
      case 1:
        if (bytes.length > 0) bytes[at] = random.below(256);
        break;
      case 2:
        bytes = bytes.subarray(0, at);
        break;
      case 3:
        bytes = Uint8Array.from([...bytes.subarray(0, at), random.below(256), ...bytes.subarray(at)]);
        break;
      case 4:
        bytes = Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 1)]);
        break;
      case 5:
        if (bytes.length >= 4) bytes[random.below(2)] = random.pick([0, 3, 12, 17, 18, 36, 50, 51, 0xff]);
        break;
      default:
        if (bytes.length >= 4) bytes[2 + random.below(2)] = random.below(4);
    }
  }
  return bytes;
}

const hmac = (hash: string, key: Uint8Array, data: string): Buffer => createHmac(hash, key).update(data).digest();

/** The SCRAM client-final message for `password` (salted passwords cached: the salt of a user is fixed). */
class ScramFinals {
  readonly #salted = new Map<string, Buffer>();
  final(hash: "sha256" | "sha512", password: string, clientFirstBare: string, serverFirst: string): string | undefined {
    const fields = new Map(serverFirst.split(",").map((part) => [part.slice(0, 1), part.slice(2)]));
    const iterations = Number(fields.get("i"));
    if (!Number.isInteger(iterations) || iterations < 1 || iterations > 20_000) return undefined;
    const cacheKey = `${hash}/${password}/${fields.get("s") ?? ""}/${String(iterations)}`;
    let salted = this.#salted.get(cacheKey);
    if (salted === undefined) {
      const salt = Buffer.from(fields.get("s") ?? "", "base64");
      salted = pbkdf2Sync(password, salt, iterations, hash === "sha256" ? 32 : 64, hash);
      this.#salted.set(cacheKey, salted);
    }
    const clientKey = hmac(hash, salted, "Client Key");
    const withoutProof = `c=biws,r=${fields.get("r") ?? ""}`;
    const signature = hmac(
      hash,
      createHash(hash).update(clientKey).digest(),
      `${clientFirstBare},${serverFirst},${withoutProof}`,
    );
    return `${withoutProof},p=${Buffer.from(clientKey.map((byte, index) => byte ^ signature[index]!)).toString("base64")}`;
  }
}

interface Exchange {
  frames: number;
  authenticated: boolean;
}

let harness: BrokerHarness;
let handled = 0;

beforeAll(async () => {
  harness = new BrokerHarness({
    sasl: { mechanisms: ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"], plainUsers: new Map([["alice", PASSWORD]]) },
    groupHandlers: {
      Heartbeat: {
        handle: () => {
          handled += 1;
          return Promise.resolve({ throttleTimeMs: 0, errorCode: 0 });
        },
      },
    },
  });
  const response = await harness.connect().request(51, 0, {
    deletions: [],
    upsertions: [upsertion("alice", 1, PASSWORD), upsertion("alice", 2, PASSWORD)],
  });
  expect(response.results[0]?.errorCode).toBe(0);
});

afterAll(async () => {
  await harness.close();
});

/** Sends a frame; resolves with the response frame, undefined when the connection closed (the only allowed error). */
async function send(connection: KafkaConnection, frame: Uint8Array): Promise<Uint8Array | undefined> {
  try {
    return await connection.handleFrame(frame);
  } catch (error) {
    if (!NereusError.hasCode(error, ErrorCode.DECODE_ERROR)) throw error;
    return undefined;
  }
}

function body<K extends 17 | 36>(apiKey: K, apiVersion: number, response: Uint8Array | undefined) {
  if (response === undefined) return undefined;
  try {
    return decodeResponse({ apiKey, apiVersion }, response.subarray(4)).body;
  } catch {
    return undefined;
  }
}

async function exchange(random: Random, honest: boolean, finals: ScramFinals): Promise<Exchange> {
  const connection = harness.broker.openConnection("fuzz", SASL_TRANSPORT);
  const mechanism = random.pick(["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"] as const);
  const password = honest ? PASSWORD : WRONG;
  const target = honest ? -1 : random.below(4);
  let correlationId = 0;
  let frames = 0;
  const frame = (
    apiKey: 17 | 36,
    version: number,
    requestBody: never,
    step: number,
    textMutation = false,
  ): Uint8Array => {
    const bytes = encodeRequest(
      { apiKey, apiVersion: version, correlationId: ++correlationId, clientId: "f" },
      requestBody,
    ).subarray(4);
    return step === target && !textMutation ? mutate(random, bytes) : bytes;
  };
  const token = (text: string, step: number): Uint8Array =>
    step === target && random.below(2) === 0 ? mutate(random, encoder.encode(text)) : encoder.encode(text);
  const version = random.below(3);

  frames += 1;
  const handshake = body(17, 1, await send(connection, frame(17, 1, { mechanism } as never, 0)));
  let authenticated = false;
  if (handshake?.errorCode === 0) {
    if (mechanism === "PLAIN") {
      frames += 1;
      const answer = body(
        36,
        version,
        await send(connection, frame(36, version, { authBytes: token(`\0alice\0${password}`, 1) } as never, 1)),
      );
      authenticated = answer?.errorCode === 0;
    } else {
      const hash = mechanism === "SCRAM-SHA-256" ? "sha256" : "sha512";
      const bare = `n=alice,r=${random.next().toString(36)}nonce`;
      frames += 1;
      const first = body(
        36,
        version,
        await send(connection, frame(36, version, { authBytes: token(`n,,${bare}`, 1) } as never, 1)),
      );
      if (first?.errorCode === 0) {
        const final = finals.final(hash, password, bare, decoder.decode(first.authBytes));
        if (final !== undefined) {
          frames += 1;
          const last = body(
            36,
            version,
            await send(connection, frame(36, version, { authBytes: token(final, 2) } as never, 2)),
          );
          authenticated = last?.errorCode === 0;
        }
      }
    }
  }
  if (target === 3) {
    frames += 1;
    await send(
      connection,
      mutate(random, frame(36, version, { authBytes: encoder.encode("n,,n=alice,r=x") } as never, -1)),
    );
  }
  const before = handled;
  frames += 1;
  const heartbeat = await send(
    connection,
    encodeRequest(
      { apiKey: 12, apiVersion: 4, correlationId: ++correlationId, clientId: "f" },
      {
        groupId: "g",
        generationId: 1,
        memberId: "m",
        groupInstanceId: null,
      },
    ).subarray(4),
  );
  const served = heartbeat !== undefined || handled !== before;
  connection.close();
  return { frames, authenticated: authenticated && served };
}

describe("SASL connection fuzz", () => {
  test(`≥${String(MIN_FRAMES)} mutated SASL frames and SCRAM/PLAIN messages: no crash, no bypass`, async () => {
    const random = new Random(SEED);
    const finals = new ScramFinals();
    let frames = 0;
    let honestRuns = 0;
    let attacks = 0;
    while (frames < MIN_FRAMES) {
      const honest = random.below(50) === 0;
      const outcome = await exchange(random, honest, finals);
      frames += outcome.frames;
      if (honest) {
        honestRuns += 1;
        expect(outcome.authenticated, `honest run ${String(honestRuns)} (seed ${String(SEED)})`).toBe(true);
      } else {
        attacks += 1;
        expect(outcome.authenticated, `attack ${String(attacks)} (seed ${String(SEED)}) authenticated`).toBe(false);
      }
    }
    expect(honestRuns).toBeGreaterThan(100);
    expect(harness.errors()).toEqual([]);
  }, 600_000);
});
