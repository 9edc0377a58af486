// The broker record's JSON form: Kafka listener addresses by name, Pulsar plaintext and TLS addresses, strict decoding.
import { describe, expect, test } from "vitest";
import { decodeBrokerRecord, encodeBrokerRecord, kafkaAddressOn } from "./broker-record.js";

const ENCODER = new TextEncoder();

describe("broker records", () => {
  test("carry the advertised address of each Kafka listener, and are read without them too", () => {
    const record = {
      nodeId: 2,
      kafka: { host: "10.0.0.2", port: 9092 },
      kafkaListeners: { INTERNAL: { host: "10.0.0.2", port: 9092 }, EXTERNAL: { host: "b2.example.com", port: 9093 } },
    };
    const decoded = decodeBrokerRecord(encodeBrokerRecord(record));
    expect(decoded).toEqual(record);
    expect(kafkaAddressOn(decoded, "EXTERNAL")).toEqual({ host: "b2.example.com", port: 9093 });
    expect(kafkaAddressOn(decoded, "REPLICATION")).toBeUndefined();
    expect(kafkaAddressOn(decoded, "toString")).toBeUndefined();
    expect(kafkaAddressOn(decoded, undefined)).toEqual({ host: "10.0.0.2", port: 9092 });
    // A record of a broker that publishes no listener map answers its primary address on every listener.
    const older = decodeBrokerRecord(ENCODER.encode(JSON.stringify({ nodeId: 1, kafka: { host: "h", port: 1 } })));
    expect(kafkaAddressOn(older, "EXTERNAL")).toEqual({ host: "h", port: 1 });
  });

  test("carry the Pulsar plaintext and TLS addresses; a bad one refuses the record", () => {
    const record = {
      nodeId: 3,
      kafka: { host: "h", port: 1 },
      pulsar: { host: "h", port: 6650 },
      pulsarTls: { host: "h", port: 6651 },
    };
    expect(decodeBrokerRecord(encodeBrokerRecord(record))).toEqual(record);
    const tlsOnly = { nodeId: 3, kafka: { host: "h", port: 1 }, pulsarTls: { host: "h", port: 6651 } };
    expect(decodeBrokerRecord(encodeBrokerRecord(tlsOnly))).toEqual(tlsOnly);
    expect(() =>
      decodeBrokerRecord(ENCODER.encode(JSON.stringify({ ...record, pulsarTls: { host: "h", port: -1 } }))),
    ).toThrow(/lacks its node id or addresses/);
  });

  test("a listener map that is not one refuses the record", () => {
    for (const kafkaListeners of [[], { A: { host: "", port: 1 } }, { A: { host: "h", port: 0 } }, "x"])
      expect(() =>
        decodeBrokerRecord(
          ENCODER.encode(JSON.stringify({ nodeId: 1, kafka: { host: "h", port: 1 }, kafkaListeners })),
        ),
      ).toThrow(/lacks its node id or addresses/);
  });
});
