import { InMemoryMetadataStore, MemoryWalProvider } from "@nereus/core/testing";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, TestClient } from "../../test/broker-harness.js";
import { createGroupCoordinator } from "../groups/group-coordinator.js";
import { formatPrincipal } from "../security/kafka-principal.js";
import type { ConnectionTransport } from "../security/connection-transport.js";
import type { BrokerConnection } from "./kafka-connection.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  expect(harness?.errors() ?? []).toEqual([]);
  await harness?.close();
  harness = undefined;
});

const INTERNAL: ConnectionTransport = { listenerName: "INTERNAL", securityProtocol: "PLAINTEXT" };
const EXTERNAL: ConnectionTransport = {
  listenerName: "EXTERNAL",
  securityProtocol: "SSL",
  peerCertificateSubject: "CN=alice,O=Example",
};

const metadataRequest = {
  topics: null,
  allowAutoTopicCreation: false,
  includeClusterAuthorizedOperations: false,
  includeTopicAuthorizedOperations: false,
};

function start(): BrokerHarness {
  const metadata = new InMemoryMetadataStore();
  const coordinator = createGroupCoordinator({
    metadata,
    cluster: "kafka-test",
    nodeId: 1,
    host: "127.0.0.1",
    port: 9092,
  });
  return new BrokerHarness(
    {
      advertisedHost: "127.0.0.1",
      advertisedPort: 9092,
      advertisedListeners: new Map([
        ["INTERNAL", { host: "10.0.0.1", port: 9092 }],
        ["EXTERNAL", { host: "kafka.example.com", port: 9093 }],
      ]),
      groupHandlers: coordinator.handlers,
    },
    {},
    { metadata, objectWal: new MemoryWalProvider({ walKind: "OBJECT" }) },
  );
}

describe("the listener a connection came in on", () => {
  test("Metadata and FindCoordinator answer that listener's advertised address", async () => {
    harness = start();
    const expectations: [ConnectionTransport | undefined, string, number][] = [
      [INTERNAL, "10.0.0.1", 9092],
      [EXTERNAL, "kafka.example.com", 9093],
      [undefined, "127.0.0.1", 9092],
      [{ listenerName: "UNKNOWN", securityProtocol: "PLAINTEXT" }, "127.0.0.1", 9092],
    ];
    for (const [transport, host, port] of expectations) {
      const client = new TestClient(harness.broker.openConnection("peer", transport));
      const metadata = await client.request(3, 12, metadataRequest);
      expect(metadata.brokers).toEqual([{ nodeId: 1, host, port, rack: null }]);
      const coordinator = await client.request(10, 3, { key: "g", keyType: 0, coordinatorKeys: [] });
      expect(coordinator).toMatchObject({ errorCode: 0, nodeId: 1, host, port });
    }
  });

  test("an SSL client certificate is the principal; PLAINTEXT and SASL_SSL connections start anonymous", () => {
    harness = start();
    const principal = (transport: ConnectionTransport): string =>
      formatPrincipal((harness!.broker.openConnection("peer", transport) as BrokerConnection).principal);
    expect(principal(EXTERNAL)).toBe("User:CN=alice,O=Example");
    expect(principal(INTERNAL)).toBe("User:ANONYMOUS");
    expect(principal({ ...EXTERNAL, securityProtocol: "SASL_SSL" })).toBe("User:ANONYMOUS");
    expect((harness.broker.openConnection("peer", EXTERNAL) as BrokerConnection).transport).toEqual(EXTERNAL);
  });
});
