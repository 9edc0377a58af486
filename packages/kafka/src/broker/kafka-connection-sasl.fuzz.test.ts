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
  /** Mutated frames sent (a frame whose bytes or whose SASL token was mutated). */
  mutated: number;
  /** The SASL exchange ended in success, as the client saw it. */
  authenticated: boolean;
  /** The Heartbeat after the exchange reached its handler or was answered. */
  served: boolean;
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

/**
 * One exchange on a new connection. An attack (wrong password) mutates the steps of `mask` (bit 0 the handshake, bit 1
 * the first token, bit 2 the final token, bit 3 one more mutated frame after the exchange), each at random either as
 * frame bytes or as the SASL token inside a well-formed frame; an honest exchange mutates nothing.
 */
async function exchange(random: Random, honest: boolean, finals: ScramFinals): Promise<Exchange> {
  const connection = harness.broker.openConnection("fuzz", SASL_TRANSPORT);
  const mechanism = random.pick(["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"] as const);
  const password = honest ? PASSWORD : WRONG;
  const mask = honest ? 0 : 1 + random.below(15);
  const version = random.below(3);
  let correlationId = 0;
  let mutated = 0;
  const mutates = (step: number): boolean => (mask & (1 << step)) !== 0;
  const request = (apiKey: 17 | 36, apiVersion: number, requestBody: never): Uint8Array =>
    encodeRequest({ apiKey, apiVersion, correlationId: ++correlationId, clientId: "f" }, requestBody).subarray(4);
  const sendStep = async <K extends 17 | 36>(
    step: number,
    apiKey: K,
    apiVersion: number,
    make: (token: (text: string) => Uint8Array) => never,
  ) => {
    const inToken = mutates(step) && random.below(2) === 0;
    const token = (text: string): Uint8Array => (inToken ? mutate(random, encoder.encode(text)) : encoder.encode(text));
    let bytes = request(apiKey, apiVersion, make(token));
    if (mutates(step) && !inToken) bytes = mutate(random, bytes);
    if (mutates(step)) mutated += 1;
    return body(apiKey, apiVersion, await send(connection, bytes));
  };

  let authenticated = false;
  const handshake = await sendStep(0, 17, 1, () => ({ mechanism }) as never);
  if (handshake?.errorCode === 0) {
    if (mechanism === "PLAIN") {
      const answer = await sendStep(1, 36, version, (token) => ({ authBytes: token(`\0alice\0${password}`) }) as never);
      authenticated = answer?.errorCode === 0;
    } else {
      const hash = mechanism === "SCRAM-SHA-256" ? "sha256" : "sha512";
      const bare = `n=alice,r=${random.next().toString(36)}nonce`;
      const first = await sendStep(1, 36, version, (token) => ({ authBytes: token(`n,,${bare}`) }) as never);
      const final =
        first?.errorCode === 0 ? finals.final(hash, password, bare, decoder.decode(first.authBytes)) : undefined;
      if (final !== undefined) {
        const last = await sendStep(2, 36, version, (token) => ({ authBytes: token(final) }) as never);
        authenticated = last?.errorCode === 0;
      }
    }
  }
  if (mutates(3)) {
    mutated += 1;
    await send(
      connection,
      mutate(random, request(36, version, { authBytes: encoder.encode("n,,n=alice,r=x") } as never)),
    );
  }
  const before = handled;
  const heartbeat = await send(
    connection,
    encodeRequest(
      { apiKey: 12, apiVersion: 4, correlationId: ++correlationId, clientId: "f" },
      { groupId: "g", generationId: 1, memberId: "m", groupInstanceId: null },
    ).subarray(4),
  );
  connection.close();
  return { mutated, authenticated, served: heartbeat !== undefined || handled !== before };
}

describe("SASL connection fuzz", () => {
  test(`≥${String(MIN_FRAMES)} mutated SASL frames and SCRAM/PLAIN messages: no crash, no bypass`, async () => {
    const random = new Random(SEED);
    const finals = new ScramFinals();
    let mutated = 0;
    let honestRuns = 0;
    let attacks = 0;
    while (mutated < MIN_FRAMES) {
      const honest = random.below(50) === 0;
      const outcome = await exchange(random, honest, finals);
      mutated += outcome.mutated;
      if (honest) {
        honestRuns += 1;
        expect(outcome.authenticated && outcome.served, `honest run ${String(honestRuns)} (seed ${String(SEED)})`).toBe(
          true,
        );
      } else {
        attacks += 1;
        expect(outcome.served, `attack ${String(attacks)} (seed ${String(SEED)}) reached a handler`).toBe(false);
        expect(outcome.authenticated, `attack ${String(attacks)} (seed ${String(SEED)}) authenticated`).toBe(false);
      }
    }
    expect(honestRuns).toBeGreaterThan(100);
    expect(harness.errors()).toEqual([]);
  }, 600_000);
});
