// Fuzz-style properties: valid request frames of every supported API and version (random bodies from the
// schemas, plus the real-client captures) are mutated (bit flips, byte overwrites, truncation, insertion,
// deletion, hostile length values) and fed to decodeRequest. Every outcome must be a decoded value or a
// NereusError(DECODE_ERROR): no other exception type, no hang. Same for decodeResponse on response frames.
import { ErrorCode, NereusError } from "@nereus/core";
import fc from "fast-check";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeRequest } from "../src/protocol/decode-request.js";
import { decodeResponse, encodeRequest } from "../src/protocol/encode-request.js";
import { encodeResponse } from "../src/protocol/encode-response.js";
import { SUPPORTED_APIS, type SupportedApiKey } from "../src/protocol/supported-apis.js";
import { loadClientFixture } from "./client-fixtures.js";
import { messageArbitrary } from "./schema-arbitrary.js";

interface Sample {
  readonly apiKey: SupportedApiKey;
  readonly apiVersion: number;
  readonly frame: Uint8Array;
}

function corpus(kind: "request" | "response"): Sample[] {
  const samples: Sample[] = [];
  for (const api of Object.values(SUPPORTED_APIS)) {
    const apiKey = api.apiKey as SupportedApiKey;
    for (let version = api.minVersion; version <= api.maxVersion; version += 1) {
      const schema = kind === "request" ? api.request : api.response;
      for (const body of fc.sample(messageArbitrary(schema, version), { numRuns: 3, seed: apiKey * 100 + version })) {
        const frame =
          kind === "request"
            ? encodeRequest({ apiKey, apiVersion: version, correlationId: 7, clientId: "fuzz" }, body as never)
            : encodeResponse({ apiKey, apiVersion: version, correlationId: 7 }, body as never);
        samples.push({ apiKey, apiVersion: version, frame: frame.subarray(4) });
      }
    }
  }
  if (kind === "request") {
    const dir = path.resolve(import.meta.dirname, "fixtures");
    for (const file of fs.readdirSync(dir).filter((name) => name.endsWith(".hex"))) {
      for (const { frame } of loadClientFixture(file.replace(/\.hex$/, "")).frames) {
        const view = new DataView(frame.buffer, frame.byteOffset);
        samples.push({ apiKey: view.getInt16(0) as SupportedApiKey, apiVersion: view.getInt16(2), frame });
      }
    }
  }
  return samples;
}

const HOSTILE_INT32 = [0x7fffffff, 0xffffffff, 0x80000000, 0xfffffffe, 0x0000ffff, 0x7fff0000];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant("flip" as const), at: fc.nat(), bit: fc.nat({ max: 7 }) }),
  fc.record({ kind: fc.constant("set" as const), at: fc.nat(), value: fc.nat({ max: 255 }) }),
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant("insert" as const),
    at: fc.nat(),
    data: fc.uint8Array({ minLength: 1, maxLength: 6 }),
  }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat(), count: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ kind: fc.constant("int32" as const), at: fc.nat(), value: fc.constantFrom(...HOSTILE_INT32) }),
  fc.record({
    kind: fc.constant("varint" as const),
    at: fc.nat(),
    data: fc.constantFrom(
      new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f]),
      new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x80, 0x01]),
    ),
  }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(frame: Uint8Array, mutations: readonly Mutation[]): Uint8Array {
  let bytes = frame.slice();
  for (const step of mutations) {
    const at = bytes.length === 0 ? 0 : step.at % bytes.length;
    switch (step.kind) {
      case "flip":
        if (bytes.length > 0) bytes[at] = (bytes[at] ?? 0) ^ (1 << step.bit);
        break;
      case "set":
        if (bytes.length > 0) bytes[at] = step.value;
        break;
      case "truncate":
        bytes = bytes.slice(0, at);
        break;
      case "insert":
      case "varint": {
        const next = new Uint8Array(bytes.length + step.data.length);
        next.set(bytes.subarray(0, at));
        next.set(step.data, at);
        next.set(bytes.subarray(at), at + step.data.length);
        bytes = next;
        break;
      }
      case "delete":
        bytes = Uint8Array.of(...bytes.subarray(0, at), ...bytes.subarray(at + step.count));
        break;
      case "int32":
        if (bytes.length >= 4) new DataView(bytes.buffer).setUint32(Math.min(at, bytes.length - 4), step.value);
        break;
    }
  }
  return bytes;
}

function expectOnlyDecodeErrors(run: () => unknown): "ok" | "rejected" {
  try {
    run();
    return "ok";
  } catch (error) {
    if (!NereusError.hasCode(error, ErrorCode.DECODE_ERROR)) throw error;
    return "rejected";
  }
}

describe("mutated frames", () => {
  const requests = corpus("request");
  const responses = corpus("response");

  it("the unmutated corpus decodes", () => {
    for (const sample of requests) expect(decodeRequest(sample.frame).kind).toBe("request");
    for (const sample of responses) decodeResponse(sample, sample.frame);
  });

  it("12,000 mutated request frames either decode or raise DECODE_ERROR", () => {
    const outcomes = { ok: 0, rejected: 0 };
    fc.assert(
      fc.property(
        fc.nat({ max: requests.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (index, mutations) => {
          const sample = requests[index] as Sample;
          outcomes[expectOnlyDecodeErrors(() => decodeRequest(mutate(sample.frame, mutations)))] += 1;
        },
      ),
      { numRuns: 12_000, seed: 20_261_130 },
    );
    expect(outcomes.ok + outcomes.rejected).toBeGreaterThanOrEqual(12_000);
    expect(outcomes.rejected).toBeGreaterThan(1000);
  });

  it("4,000 mutated response frames either decode or raise DECODE_ERROR", () => {
    fc.assert(
      fc.property(
        fc.nat({ max: responses.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        (index, mutations) => {
          const sample = responses[index] as Sample;
          expectOnlyDecodeErrors(() => decodeResponse(sample, mutate(sample.frame, mutations)));
        },
      ),
      { numRuns: 4_000, seed: 11_302_026 },
    );
  });

  it("random bytes never escape as anything but DECODE_ERROR", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expectOnlyDecodeErrors(() => decodeRequest(bytes));
      }),
      { numRuns: 3_000 },
    );
  });
});
