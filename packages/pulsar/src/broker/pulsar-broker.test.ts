// createPulsarBroker: option checks before any I/O, connections refused once closed, and close ending every
// open connection.
import { ErrorCode } from "@nereus/core";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness } from "../../test/broker-harness.js";
import { thrownError } from "../../test/thrown-error.js";
import { createPulsarBroker } from "./pulsar-broker.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("createPulsarBroker", () => {
  test("an advertised URL that is not pulsar://host:port is refused", () => {
    harness = new BrokerHarness();
    const ledgers = {
      metadata: harness.metadata,
      objects: harness.objects,
      streams: harness.streams,
      cluster: "c",
      defaultProfile: "OBJECT_WAL_SYNC_OBJECT" as const,
    };
    for (const advertisedUrl of ["http://host:6650", "pulsar://host", "pulsar://host:6650/path"]) {
      thrownError(() => createPulsarBroker({ ledgers, advertisedUrl }), ErrorCode.INVALID_ARGUMENT);
    }
  });

  test("close ends every connection and refuses new ones with STORAGE_CLOSED", async () => {
    harness = new BrokerHarness();
    const client = harness.connect();
    await client.handshake();
    await harness.broker.close();
    await harness.broker.close();
    client.send({ type: "PING", body: {} });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(client.commands("PONG")).toEqual([]);
    thrownError(() => harness?.connect(), ErrorCode.STORAGE_CLOSED);
  });
});
