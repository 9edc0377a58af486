// The frozen real-client captures decode to exactly what the clients meant (test/fixtures/<client>-<scenario>.hex,
// produced by scripts/capture-client-fixtures.ts; real-clients.test.ts keeps them honest against the live clients).
import { describe, expect, it } from "vitest";
import { decodeRequest } from "../src/protocol/decode-request.js";
import { loadClientFixture } from "./client-fixtures.js";

function decodeAll(name: string): unknown[] {
  return loadClientFixture(name).frames.map(({ frame }) => {
    const request = decodeRequest(frame);
    expect(request.kind).toBe("request");
    return request.kind === "request" ? { apiKey: request.apiKey, apiVersion: request.apiVersion, header: request.header, body: request.body } : request;
  });
}

describe("kcat 1.7.1 / librdkafka 2.0.2 captures", () => {
  it("metadata: ApiVersions v3 (flexible, header v2), then Metadata v4 for brokers only and for all topics", () => {
    expect(loadClientFixture("kcat-metadata").client).toBe("kcat 1.7.1 / librdkafka 2.0.2");
    expect(decodeAll("kcat-metadata")).toEqual([
      {
        apiKey: 18,
        apiVersion: 3,
        header: { apiKey: 18, apiVersion: 3, correlationId: 1, clientId: "rdkafka" },
        body: { clientSoftwareName: "librdkafka", clientSoftwareVersion: "2.0.2" },
      },
      {
        apiKey: 3,
        apiVersion: 4,
        header: { apiKey: 3, apiVersion: 4, correlationId: 2, clientId: "rdkafka" },
        body: { topics: [], allowAutoTopicCreation: false, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false },
      },
      {
        apiKey: 3,
        apiVersion: 4,
        header: { apiKey: 3, apiVersion: 4, correlationId: 3, clientId: "rdkafka" },
        body: { topics: null, allowAutoTopicCreation: true, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false },
      },
    ]);
  });
});

describe("kafkajs 2.2.4 captures", () => {
  it("metadata: ApiVersions v2, then Metadata v6 for the requested topic (auto-create off)", () => {
    expect(loadClientFixture("kafkajs-metadata").client).toBe("kafkajs 2.2.4");
    const metadataBody = {
      topics: [{ topicId: "00000000-0000-0000-0000-000000000000", name: "capture" }],
      allowAutoTopicCreation: false,
      includeClusterAuthorizedOperations: false,
      includeTopicAuthorizedOperations: false,
    };
    expect(decodeAll("kafkajs-metadata")).toEqual([
      {
        apiKey: 18,
        apiVersion: 2,
        header: { apiKey: 18, apiVersion: 2, correlationId: 0, clientId: "nereus-capture" },
        body: { clientSoftwareName: "", clientSoftwareVersion: "" },
      },
      { apiKey: 3, apiVersion: 6, header: { apiKey: 3, apiVersion: 6, correlationId: 1, clientId: "nereus-capture" }, body: metadataBody },
      { apiKey: 3, apiVersion: 6, header: { apiKey: 3, apiVersion: 6, correlationId: 2, clientId: "nereus-capture" }, body: metadataBody },
    ]);
  });
});
