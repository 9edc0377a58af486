import { describe, expect, test } from "vitest";
import { BrokerConfigSchema } from "./broker-config.js";
import { initialScramUsers, kafkaSaslOptions } from "./kafka-sasl-config.js";
import { redactSecrets } from "./secret-fields.js";

function parse(sasl: Record<string, unknown>) {
  return BrokerConfigSchema.safeParse({ kafka: { sasl } });
}

describe("kafka.sasl", () => {
  test("defaults: the SCRAM mechanisms, no users, sessions without a lifetime", () => {
    const { sasl } = BrokerConfigSchema.parse({}).kafka;
    expect(sasl).toEqual({
      mechanisms: ["SCRAM-SHA-512", "SCRAM-SHA-256"],
      plainUsers: [],
      scramUsers: [],
      connectionsMaxReauthMs: 0,
    });
    expect(kafkaSaslOptions(sasl)).toEqual({
      mechanisms: ["SCRAM-SHA-512", "SCRAM-SHA-256"],
      plainUsers: new Map(),
      reauthenticationMs: 0,
    });
  });

  test("refuses unknown or repeated mechanisms, repeated PLAIN users, empty passwords and iterations out of Kafka's bounds", () => {
    expect(parse({ mechanisms: ["GSSAPI"] }).success).toBe(false);
    expect(parse({ mechanisms: [] }).success).toBe(false);
    expect(parse({ mechanisms: ["PLAIN", "PLAIN"] }).success).toBe(false);
    expect(
      parse({
        plainUsers: [
          { name: "a", password: "x" },
          { name: "a", password: "y" },
        ],
      }).success,
    ).toBe(false);
    expect(parse({ plainUsers: [{ name: "a", password: "" }] }).success).toBe(false);
    const scram = { name: "admin", password: "pw", mechanism: "SCRAM-SHA-512" };
    expect(parse({ scramUsers: [{ ...scram, iterations: 4095 }] }).success).toBe(false);
    expect(parse({ scramUsers: [{ ...scram, iterations: 16385 }] }).success).toBe(false);
    expect(parse({ scramUsers: [{ ...scram, mechanism: "PLAIN" }] }).success).toBe(false);
    expect(parse({ connectionsMaxReauthMs: -1 }).success).toBe(false);
  });

  test("maps to the broker's options and the start-up users; --print-config redacts every password", () => {
    const config = BrokerConfigSchema.parse({
      kafka: {
        sasl: {
          mechanisms: ["PLAIN", "SCRAM-SHA-256"],
          plainUsers: [{ name: "svc", password: "plain-secret" }],
          scramUsers: [{ name: "admin", password: "scram-secret", mechanism: "SCRAM-SHA-256" }],
          connectionsMaxReauthMs: 3_600_000,
        },
      },
    });
    expect(kafkaSaslOptions(config.kafka.sasl)).toEqual({
      mechanisms: ["PLAIN", "SCRAM-SHA-256"],
      plainUsers: new Map([["svc", "plain-secret"]]),
      reauthenticationMs: 3_600_000,
    });
    expect(initialScramUsers(config.kafka.sasl)).toEqual([
      { name: "admin", password: "scram-secret", mechanism: "SCRAM-SHA-256", iterations: 8192 },
    ]);
    const printed = JSON.stringify(redactSecrets(config));
    expect(printed).not.toMatch(/plain-secret|scram-secret/);
    expect(printed).toContain('"name":"svc","password":"<redacted>"');
  });
});
