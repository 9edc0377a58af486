import { describe, expect, test } from "vitest";
import { BrokerConfigSchema } from "./broker-config.js";
import { ConfigError } from "./config-error.js";
import { kafkaListenersOf } from "./listeners-config.js";
import { loadBrokerConfig } from "./load-broker-config.js";
import { redactSecrets } from "./secret-fields.js";

const TLS = { certFile: "/etc/nereus/server.pem", keyFile: "/etc/nereus/server.key" };

/** The messages of the issues zod reports for `input`, as "path: message". */
function issues(input: unknown): string[] {
  const result = BrokerConfigSchema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("kafka.listeners", () => {
  test("absent: kafka.host/port and the advertised address are one PLAINTEXT listener named PLAINTEXT", () => {
    const { kafka } = BrokerConfigSchema.parse({ kafka: { host: "0.0.0.0", port: 19092, advertisedHost: "kafka-1" } });
    expect(kafkaListenersOf(kafka)).toEqual([
      { name: "PLAINTEXT", host: "0.0.0.0", port: 19092, securityProtocol: "PLAINTEXT", advertisedHost: "kafka-1" },
    ]);
    expect(kafkaListenersOf(BrokerConfigSchema.parse({}).kafka)).toEqual([
      { name: "PLAINTEXT", host: "127.0.0.1", port: 9092, securityProtocol: "PLAINTEXT" },
    ]);
  });

  test("a plaintext loopback listener and a TLS one with client certificates, each with its advertised address", () => {
    const listeners = [
      { name: "INTERNAL", port: 9092, securityProtocol: "PLAINTEXT" },
      {
        name: "EXTERNAL",
        host: "0.0.0.0",
        port: 9093,
        securityProtocol: "SSL",
        tls: { ...TLS, caFile: "/etc/nereus/ca.pem", clientAuth: "required" },
        advertisedHost: "kafka.example.com",
        advertisedPort: 443,
      },
    ];
    expect(kafkaListenersOf(BrokerConfigSchema.parse({ kafka: { listeners } }).kafka)).toEqual([
      { name: "INTERNAL", host: "127.0.0.1", port: 9092, securityProtocol: "PLAINTEXT" },
      { ...listeners[1], tls: { ...TLS, caFile: "/etc/nereus/ca.pem", clientAuth: "required" } },
    ]);
    expect(
      BrokerConfigSchema.parse({
        kafka: { listeners: [{ name: "S", port: 1, securityProtocol: "SASL_SSL", tls: TLS }] },
      }).kafka.listeners?.[0]?.tls?.clientAuth,
    ).toBe("none");
  });

  test("refuses listeners that cannot work, naming the field", () => {
    expect(issues({ kafka: { listeners: [{ name: "A", port: 1, securityProtocol: "SSL" }] } })).toEqual([
      "kafka.listeners.0.tls: securityProtocol SSL needs tls (certFile and keyFile)",
    ]);
    expect(issues({ kafka: { listeners: [{ name: "A", port: 1, securityProtocol: "PLAINTEXT", tls: TLS }] } })).toEqual(
      ["kafka.listeners.0.tls: securityProtocol PLAINTEXT does not use TLS: remove tls or use SSL"],
    );
    expect(
      issues({
        kafka: {
          listeners: [
            { name: "A", port: 1, securityProtocol: "PLAINTEXT" },
            { name: "A", port: 2, securityProtocol: "SASL_PLAINTEXT" },
          ],
        },
      }),
    ).toEqual(["kafka.listeners.1.name: listener name A is used twice"]);
    expect(
      issues({
        kafka: {
          listeners: [
            { name: "A", port: 9092, securityProtocol: "PLAINTEXT" },
            { name: "B", port: 9092, securityProtocol: "PLAINTEXT" },
          ],
        },
      }),
    ).toEqual(["kafka.listeners.1.port: 127.0.0.1:9092 is bound by two listeners"]);
    expect(issues({ kafka: { listeners: [] } })).toEqual(["kafka.listeners: needs at least one listener"]);
    expect(issues({ kafka: { listeners: [{ name: "a b", port: 1, securityProtocol: "PLAINTEXT" }] } })[0]).toMatch(
      /^kafka\.listeners\.0\.name: must match/,
    );
    expect(issues({ kafka: { listeners: [{ name: "A", port: 1, securityProtocol: "TLS" }] } })).toEqual([
      "kafka.listeners.0.securityProtocol: must be one of PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL",
    ]);
    expect(
      issues({
        kafka: {
          listeners: [{ name: "A", port: 1, securityProtocol: "SSL", tls: { ...TLS, clientAuth: "required" } }],
        },
      }),
    ).toEqual([
      "kafka.listeners.0.tls.caFile: clientAuth requested or required needs caFile (the CAs that client certificates must chain to)",
    ]);
    expect(
      issues({
        kafka: { listeners: [{ name: "A", port: 1, securityProtocol: "SSL", tls: { ...TLS, keyPass: "x" } }] },
      }),
    ).toHaveLength(1);
  });
});

describe("pulsar.tls and admin.tls", () => {
  test("the Pulsar TLS listener defaults to port 6651 next to the plaintext one", () => {
    expect(BrokerConfigSchema.parse({ pulsar: { tls: TLS } }).pulsar.tls).toEqual({
      ...TLS,
      clientAuth: "none",
      port: 6651,
      plaintext: true,
    });
    expect(issues({ pulsar: { tls: { ...TLS, clientAuth: "requested" } } })).toEqual([
      "pulsar.tls.caFile: clientAuth requested or required needs caFile (the CAs that client certificates must chain to)",
    ]);
  });

  test("admin.tls takes the same files; without it the admin API stays plain HTTP", () => {
    expect(BrokerConfigSchema.parse({}).admin.tls).toBeUndefined();
    expect(BrokerConfigSchema.parse({ admin: { tls: TLS } }).admin.tls).toEqual({ ...TLS, clientAuth: "none" });
  });
});

describe("admin.auth", () => {
  test("defaults: no credential (open, as on loopback by default), health and metrics public", () => {
    expect(BrokerConfigSchema.parse({}).admin.auth).toEqual({
      tokens: [],
      clientCertificates: false,
      publicPaths: ["/healthz", "/metrics"],
    });
  });

  test("tokens must be long and uniquely named; paths must be paths", () => {
    expect(issues({ admin: { auth: { tokenSecret: "short" } } })[0]).toMatch(
      /^admin\.auth\.tokenSecret: must be at least 16/,
    );
    const secret = "0123456789abcdef0123";
    expect(
      issues({
        admin: {
          auth: {
            tokens: [
              { name: "ops", secret },
              { name: "ops", secret: `${secret}x` },
            ],
          },
        },
      }),
    ).toEqual(["admin.auth.tokens.1: token name ops is used twice"]);
    expect(issues({ admin: { auth: { publicPaths: ["healthz"] } } })[0]).toMatch(/must be a path starting with \//);
  });

  test("NEREUS_ADMIN_TOKEN_SECRET sets the admin token, which --print-config never shows", () => {
    const secret = "s3cr3t-admin-token-0123456789";
    const { config } = loadBrokerConfig({ argv: [], env: { NEREUS_ADMIN_TOKEN_SECRET: secret }, cwd: "/srv" });
    expect(config.admin.auth.tokenSecret).toBe(secret);
    const shown = JSON.stringify(
      redactSecrets({
        ...config,
        admin: { ...config.admin, auth: { ...config.admin.auth, tokens: [{ name: "x", secret }] } },
      }),
    );
    expect(shown).not.toContain(secret);
    let error: unknown;
    try {
      loadBrokerConfig({ argv: [], env: { NEREUS_ADMIN_TOKEN_SECRET: "short-secret" }, cwd: "/srv" });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).not.toContain("short-secret");
  });
});
