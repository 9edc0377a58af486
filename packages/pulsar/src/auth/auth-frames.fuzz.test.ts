// 100,000 mutated CONNECT and AUTH_RESPONSE frames, each on a fresh in-process connection of a broker with token
// authentication and authorization on. Tokens are valid, expired, signed with another key, unsigned (`alg: none`)
// or signed with RS256; mutations edit the token (a changed character, a cut, a signature spliced from another
// token, random bytes), the method name, or the encoded frame (flipped bytes, truncation). Nothing may crash the
// connection's handling, and nothing may get through that should not: a connection is answered CONNECTED only when
// the credentials it sent verify as the one valid role, a refused one is closed, an AUTH_RESPONSE that keeps the
// connection open verifies as the same role, and no connection ever opens a producer on a topic its role was granted
// nothing on — not even through an AUTH_RESPONSE carrying a super user's valid token.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { SignJWT, UnsecuredJWT } from "jose";
import { afterAll, describe, expect, test } from "vitest";
import { BrokerHarness } from "../../test/broker-harness.js";
import { type DecodedFrame, decodeFrame, encodeCommandFrame } from "../protocol/index.js";
import { createTokenVerifier } from "./token-verifier.js";

const SEED = 0xa17c_0de5;
const CONNECT_FRAMES = 60_000;
const AUTH_RESPONSE_FRAMES = 40_000;
const BATCH = 500;
const SECRET = randomBytes(32);
const TOPIC = "persistent://acme/billing/orders";
const encoder = new TextEncoder();
const verifier = createTokenVerifier({ key: { kind: "secret", bytes: SECRET } });
const harness = new BrokerHarness({
  auth: {
    authentication: { verifier },
    authorization: { superUserRoles: ["admin"], cacheMs: 60_000 },
  },
});

afterAll(() => harness.close());

/** mulberry32: the same seed gives the same frames. */
function seeded(seed: number): { below(bound: number): number; bytes(count: number): Uint8Array } {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const below = (bound: number): number => Math.floor(next() * bound);
  return { below, bytes: (count) => Uint8Array.from({ length: count }, () => below(256)) };
}
type Random = ReturnType<typeof seeded>;

interface Tokens {
  readonly alice: string;
  readonly aliceFresh: string;
  readonly admin: string;
  readonly expired: string;
  readonly foreign: string;
  readonly unsigned: string;
  readonly rs256: string;
}

async function makeTokens(): Promise<Tokens> {
  const now = Math.floor(Date.now() / 1_000);
  const sign = (claims: Record<string, unknown>, key: Uint8Array = SECRET) =>
    new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).sign(key);
  const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  return {
    alice: await sign({ sub: "alice", exp: now + 3_600 }),
    aliceFresh: await sign({ sub: "alice", exp: now + 7_200 }),
    admin: await sign({ sub: "admin" }),
    expired: await sign({ sub: "alice", exp: now - 60 }),
    foreign: await sign({ sub: "admin" }, randomBytes(32)),
    unsigned: new UnsecuredJWT({ sub: "admin" }).encode(),
    rs256: await new SignJWT({ sub: "admin" }).setProtectedHeader({ alg: "RS256" }).sign(rsa),
  };
}

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";

/** A token edited by one random token-level mutation. */
function mutateToken(random: Random, token: string, tokens: Tokens): string {
  const others = Object.values(tokens);
  switch (random.below(6)) {
    case 0: {
      const at = random.below(token.length);
      return token.slice(0, at) + BASE64URL[random.below(BASE64URL.length)]! + token.slice(at + 1);
    }
    case 1:
      return token.slice(0, random.below(token.length));
    case 2: {
      const [header, payload] = others[random.below(others.length)]!.split(".");
      return `${header!}.${payload!}.${token.split(".")[2] ?? ""}`;
    }
    case 3:
      return Buffer.from(random.bytes(1 + random.below(96))).toString("latin1");
    case 4:
      return `${token}${BASE64URL[random.below(BASE64URL.length)]!}`;
    default:
      return token;
  }
}

/** The frame (totalSize included) of `credentials`, maybe with a random method name or flipped / cut bytes. */
function mutateFrame(
  random: Random,
  build: (method: string | undefined, data: Uint8Array) => Uint8Array,
  token: string,
): Uint8Array {
  const method = random.below(10) === 0 ? ["none", "tls", "", "TOKEN", undefined][random.below(5)] : "token";
  const frame = Uint8Array.from(build(method, encoder.encode(token)));
  switch (random.below(5)) {
    case 0:
      for (let count = 1 + random.below(3); count > 0; count -= 1) {
        const at = 4 + random.below(frame.length - 4);
        frame[at] = frame[at]! ^ (1 + random.below(255));
      }
      return frame;
    case 1: {
      const cut = frame.subarray(0, 8 + random.below(frame.length - 8));
      new DataView(cut.buffer, cut.byteOffset).setUint32(0, cut.length - 4);
      return cut;
    }
    default:
      return frame;
  }
}

function connectFrame(method: string | undefined, data: Uint8Array): Uint8Array {
  return encodeCommandFrame({
    type: "CONNECT",
    body: {
      clientVersion: "fuzz",
      protocolVersion: 21,
      ...(method === undefined ? {} : { authMethodName: method, authData: data }),
      featureFlags: { supportsAuthRefresh: true },
    },
  });
}

function authResponseFrame(method: string | undefined, data: Uint8Array): Uint8Array {
  return encodeCommandFrame({
    type: "AUTH_RESPONSE",
    body: { response: { ...(method === undefined ? {} : { authMethodName: method }), authData: data } },
  });
}

const PRODUCER_FRAME = encodeCommandFrame({ type: "PRODUCER", body: { topic: TOPIC, producerId: 1n, requestId: 7n } });

/** One connection fed `frames` (without totalSize) as the listener would; what it wrote and whether it closed. */
async function exchange(frames: readonly Uint8Array[]): Promise<{ replies: DecodedFrame[]; closed: boolean }> {
  const replies: DecodedFrame[] = [];
  let closed = false;
  const connection = harness.broker.openConnection({
    write: (parts) => replies.push(decodeFrame(Buffer.concat(parts).subarray(4))),
    close: () => (closed = true),
  });
  for (const frame of frames) {
    if (closed) break;
    try {
      connection.handleFrame(frame.subarray(4));
    } catch {
      connection.abort("undecodable frame");
      break;
    }
    await connection.idle();
  }
  await connection.idle();
  await connection.idle();
  connection.close();
  return { replies, closed };
}

/** The decoded command of a mutated frame, or undefined when it does not decode (or its size field lies). */
function decoded(frame: Uint8Array): DecodedFrame["command"] | undefined {
  if (new DataView(frame.buffer, frame.byteOffset).getUint32(0) !== frame.length - 4) return undefined;
  try {
    return decodeFrame(frame.subarray(4)).command;
  } catch {
    return undefined;
  }
}

async function roleOf(data: Uint8Array | undefined): Promise<string | undefined> {
  try {
    return (await verifier.verify(new TextDecoder("utf-8", { fatal: true }).decode(data))).role;
  } catch {
    return undefined;
  }
}

function types(replies: readonly DecodedFrame[]): string[] {
  return replies.map((reply) => reply.command.type);
}

describe("mutated CONNECT and AUTH_RESPONSE frames", () => {
  test("100,000 frames: no crash, no connection or producer the credentials do not allow", async () => {
    const tokens = await makeTokens();
    const random = seeded(SEED);
    const tally = { frames: 0, connected: 0, refused: 0, refreshed: 0, closedAfterResponse: 0 };
    const connectBases = [tokens.alice, tokens.expired, tokens.foreign, tokens.unsigned, tokens.rs256];
    const responseBases = [tokens.aliceFresh, tokens.admin, tokens.expired, tokens.foreign, tokens.unsigned];
    const validConnect = connectFrame("token", encoder.encode(tokens.alice));

    for (let done = 0; done < CONNECT_FRAMES; done += BATCH) {
      const frames = Array.from({ length: BATCH }, () => {
        const base = connectBases[random.below(connectBases.length)]!;
        return mutateFrame(random, connectFrame, mutateToken(random, base, tokens));
      });
      await Promise.all(
        frames.map(async (frame) => {
          tally.frames += 1;
          const { replies, closed } = await exchange([frame, PRODUCER_FRAME]);
          expect(types(replies)).not.toContain("PRODUCER_SUCCESS");
          if (types(replies).includes("CONNECTED")) {
            tally.connected += 1;
            const command = decoded(frame);
            expect(command?.type).toBe("CONNECT");
            const body = command?.type === "CONNECT" ? command.body : undefined;
            expect(body?.authMethodName).toBe("token");
            expect(await roleOf(body?.authData)).toBe("alice");
          } else {
            tally.refused += 1;
            expect(closed, JSON.stringify(types(replies))).toBe(true);
          }
        }),
      );
    }

    for (let done = 0; done < AUTH_RESPONSE_FRAMES; done += BATCH) {
      const frames = Array.from({ length: BATCH }, () => {
        const base = responseBases[random.below(responseBases.length)]!;
        return mutateFrame(random, authResponseFrame, mutateToken(random, base, tokens));
      });
      await Promise.all(
        frames.map(async (frame) => {
          tally.frames += 1;
          const { replies, closed } = await exchange([validConnect, frame, PRODUCER_FRAME]);
          expect(types(replies)[0]).toBe("CONNECTED");
          expect(types(replies)).not.toContain("PRODUCER_SUCCESS");
          const command = decoded(frame);
          if (closed) {
            tally.closedAfterResponse += 1;
            return;
          }
          if (command?.type !== "AUTH_RESPONSE") return;
          tally.refreshed += 1;
          expect(await roleOf(command.body.response?.authData)).toBe("alice");
          expect(types(replies)).toContain("ERROR");
        }),
      );
    }

    expect(tally.frames).toBe(CONNECT_FRAMES + AUTH_RESPONSE_FRAMES);
    // Both outcomes happen often enough for the oracle to mean something.
    expect(tally.connected).toBeGreaterThan(1_000);
    expect(tally.refused).toBeGreaterThan(10_000);
    expect(tally.refreshed).toBeGreaterThan(500);
    expect(tally.closedAfterResponse).toBeGreaterThan(10_000);
  }, 300_000);
});
