// Request dispatch and response framing: header versions per API version, the ApiVersions UNSUPPORTED_VERSION
// fallback, unknown APIs, trailing bytes, and the client-side inverse functions.
import { toHex } from "@nereus/core";
import { describe, expect, it } from "vitest";
import { expectDecodeError, hex } from "../../test/hex.js";
import { arr, cat, i16, i32, str, tags } from "../../test/wire.js";
import {
  advertisedApiVersions,
  apiVersionsResponseBody,
  encodeApiVersionsFallback,
} from "./advertised-api-versions.js";
import { decodeRequest } from "./decode-request.js";
import { decodeResponse, encodeRequest } from "./encode-request.js";
import { encodeResponse } from "./encode-response.js";
import { KAFKA_ERRORS, KafkaErrorCode, kafkaError } from "./error-codes.js";
import { SUPPORTED_APIS } from "./supported-apis.js";

function withoutSize(frame: Uint8Array): Uint8Array {
  expect(new DataView(frame.buffer, frame.byteOffset).getInt32(0)).toBe(frame.length - 4);
  return frame.subarray(4);
}

describe("decodeRequest", () => {
  it("decodes a non-flexible request with header v1", () => {
    const frame = hex(cat(i16(3), i16(1), i32(7), str(false, "cli"), arr(false, [str(false, "t")])));
    const request = decodeRequest(frame);
    expect(request).toMatchObject({ kind: "request", apiKey: 3, apiVersion: 1, correlationId: 7 });
    if (request.kind === "request" && request.apiKey === 3)
      expect(request.body.topics).toEqual([{ topicId: expect.any(String), name: "t" }]);
  });

  it("decodes a flexible request with header v2 (int16 client id, then tags)", () => {
    const frame = hex(
      cat(
        i16(18),
        i16(3),
        i32(1),
        str(false, "rdkafka"),
        tags(true),
        str(true, "librdkafka"),
        str(true, "2.0.2"),
        tags(true),
      ),
    );
    expect(decodeRequest(frame)).toMatchObject({
      kind: "request",
      apiKey: 18,
      header: { clientId: "rdkafka" },
      body: { clientSoftwareName: "librdkafka", clientSoftwareVersion: "2.0.2" },
    });
  });

  it("returns unsupported ApiVersions versions as values without reading the body", () => {
    const frame = hex(cat(i16(18), i16(9), i32(11), str(false, "future"), "deadbeef"));
    expect(decodeRequest(frame)).toMatchObject({
      kind: "unsupported-version",
      apiKey: 18,
      apiVersion: 9,
      correlationId: 11,
      minVersion: 0,
      maxVersion: 4,
    });
    expect(decodeRequest(hex(cat(i16(3), i16(-1), i32(1), str(false, null))))).toMatchObject({
      kind: "unsupported-version",
    });
  });

  it("returns unknown API keys as values", () => {
    expect(decodeRequest(hex(cat(i16(7777), i16(0), i32(3), str(false, null))))).toMatchObject({
      kind: "unknown-api",
      apiKey: 7777,
      correlationId: 3,
    });
  });

  it("rejects trailing bytes, truncated headers and truncated bodies with DECODE_ERROR", () => {
    expectDecodeError(() => decodeRequest(hex(cat(i16(18), i16(0), i32(1), str(false, null), "00"))));
    expectDecodeError(() => decodeRequest(hex("0012")));
    expectDecodeError(() => decodeRequest(hex(cat(i16(3), i16(1), i32(7), str(false, "cli"), i32(1)))));
    expect(
      expectDecodeError(() => decodeRequest(hex(cat(i16(3), i16(1), i32(7), str(false, "cli"), i32(1), "0009"))))
        .message,
    ).toMatch(/MetadataRequestTopic\.name at byte offset \d+/);
  });
});

describe("encodeResponse", () => {
  it("uses header v0 for non-flexible versions and v1 (tag buffer) for flexible ones", () => {
    const body = {
      throttleTimeMs: 0,
      brokers: [],
      clusterId: null,
      controllerId: 1,
      topics: [],
      clusterAuthorizedOperations: 0,
    };
    expect(toHex(withoutSize(encodeResponse({ apiKey: 3, apiVersion: 1, correlationId: 5 }, body)))).toBe(
      cat(i32(5), arr(false, []), i32(1), arr(false, [])),
    );
    expect(toHex(withoutSize(encodeResponse({ apiKey: 3, apiVersion: 9, correlationId: 5 }, body)))).toBe(
      cat(i32(5), tags(true), i32(0), arr(true, []), str(true, null), i32(1), arr(true, []), i32(0), tags(true)),
    );
  });

  it("always uses header v0 for ApiVersions, even in flexible versions", () => {
    const frame = withoutSize(
      encodeResponse({ apiKey: 18, apiVersion: 3, correlationId: 9 }, apiVersionsResponseBody()),
    );
    expect(toHex(frame.subarray(0, 6))).toBe(cat(i32(9), i16(0)));
  });

  it("answers an unsupported ApiVersions version in v0 with UNSUPPORTED_VERSION and every supported range", () => {
    const frame = withoutSize(encodeApiVersionsFallback(42));
    const keys = advertisedApiVersions();
    expect(toHex(frame)).toBe(
      cat(
        i32(42),
        i16(35),
        arr(
          false,
          keys.map((key) => cat(i16(key.apiKey), i16(key.minVersion), i16(key.maxVersion))),
        ),
      ),
    );
    expect(keys.find((key) => key.apiKey === 18)).toEqual({ apiKey: 18, minVersion: 0, maxVersion: 4 });
    expect(keys).toHaveLength(Object.keys(SUPPORTED_APIS).length);
  });
});

describe("advertised versions", () => {
  it("follow SUPPORTED_APIS, ascending, and can be capped per API", () => {
    const all = advertisedApiVersions();
    expect(all.map((entry) => entry.apiKey)).toEqual(
      [...all.map((entry) => entry.apiKey)].sort((left, right) => left - right),
    );
    expect(all.find((entry) => entry.apiKey === 1)).toEqual({ apiKey: 1, minVersion: 4, maxVersion: 17 });
    const capped = advertisedApiVersions({ 1: 12, 2: 0 });
    expect(capped.find((entry) => entry.apiKey === 1)).toEqual({ apiKey: 1, minVersion: 4, maxVersion: 12 });
    expect(capped.some((entry) => entry.apiKey === 2)).toBe(false);
    expect(apiVersionsResponseBody({ caps: { 1: 12 } }).apiKeys).toEqual(
      capped.concat(all.filter((entry) => entry.apiKey === 2)).sort((left, right) => left.apiKey - right.apiKey),
    );
  });
});

describe("client side", () => {
  it("encodeRequest and decodeResponse invert the broker side", () => {
    const frame = encodeRequest(
      { apiKey: 3, apiVersion: 12, correlationId: 4, clientId: "c" },
      {
        topics: null,
        allowAutoTopicCreation: true,
        includeClusterAuthorizedOperations: false,
        includeTopicAuthorizedOperations: false,
      },
    );
    const request = decodeRequest(withoutSize(frame));
    expect(request).toMatchObject({
      kind: "request",
      apiKey: 3,
      apiVersion: 12,
      header: { clientId: "c" },
      body: { topics: null },
    });
    const body = apiVersionsResponseBody();
    const response = decodeResponse(
      { apiKey: 18, apiVersion: 3 },
      withoutSize(encodeResponse({ apiKey: 18, apiVersion: 3, correlationId: 4 }, body)),
    );
    expect(response).toEqual({ header: { correlationId: 4 }, body });
  });
});

describe("error codes", () => {
  it("carry Kafka's names and retriable flags", () => {
    expect(KafkaErrorCode.UNSUPPORTED_VERSION).toBe(35);
    expect(kafkaError(KafkaErrorCode.NOT_COORDINATOR)).toEqual({ code: 16, name: "NOT_COORDINATOR", retriable: true });
    expect(kafkaError(KafkaErrorCode.ILLEGAL_GENERATION).retriable).toBe(false);
    expect(kafkaError(KafkaErrorCode.CORRUPT_MESSAGE).retriable).toBe(true);
    expect(kafkaError(9999)).toEqual({ code: 9999, name: "UNKNOWN_ERROR_9999", retriable: false });
    expect(new Set([...KAFKA_ERRORS.values()].map((error) => error.name)).size).toBe(KAFKA_ERRORS.size);
  });
});
