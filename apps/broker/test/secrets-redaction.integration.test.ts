// No secret of the configuration ever leaves the broker: a broker process on a secured etcd (TLS, user and password),
// s3proxy with credentials and BookKeeper with a ledger password, with an admin bearer token, a SCRAM user on a SASL
// listener and a Pulsar token secret key — each secret a recognizable marker — serves a SASL-authenticated Kafka client
// at debug log level, answers DescribeConfigs, /metrics and the admin API, and then loses its etcd credentials (the password
// is changed under it); start-ups with a wrong etcd password, a bad S3 secret, configuration errors and
// --print-config fail or print as they should. The markers appear in none of stdout, stderr, /metrics, the admin
// API's answers or the error lines.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { etcd3ClientOptions, loadServices } from "@nereus/test-services";
import { Etcd3 } from "etcd3";
import { ConfigResourceTypes, Kafka, logLevel } from "kafkajs";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { BrokerProcess, freePort, tempDir, testConfig } from "./support/broker-fixture.js";
import { type SecuredEtcd, startSecuredEtcd } from "./support/secured-etcd.js";

const marker = `LEAKMARK${randomBytes(6).toString("hex")}`;
/** Every secret this file hands the broker, each containing the marker. */
const secrets = {
  etcdPassword: `etcd-${marker}`,
  etcdPasswordChanged: `etcd-changed-${marker}`,
  wrongEtcdPassword: `etcd-wrong-${marker}`,
  wrongS3Secret: `s3-wrong-${marker}`,
  bookkeeperPassword: `bookkeeper-${marker}`,
  adminToken: `admin-${marker}`,
  saslPassword: `sasl-${marker}`,
  /** The Pulsar token secret key is base64: the marker is inside the key, the string itself is the secret. */
  pulsarTokenKey: Buffer.from(`pulsar-token-key-${marker}-padding-to-32-bytes`).toString("base64"),
};
const SASL_USER = "alice";
const services = loadServices();
let secured: SecuredEtcd;
let root: Etcd3;
const processes: BrokerProcess[] = [];

beforeAll(async () => {
  secured = await startSecuredEtcd();
  const { endpoint, tls, auth } = secured.etcd;
  root = new Etcd3({
    ...etcd3ClientOptions(endpoint, tls),
    auth: { username: auth.rootUser, password: auth.rootPassword },
  });
  await root.user(auth.username).setPassword(secrets.etcdPassword);
}, 60_000);

afterAll(async () => {
  root?.close();
  await secured?.stop();
});

afterEach(async () => {
  for (const broker of processes.splice(0)) await broker.stop("SIGKILL");
});

/** Fails naming where a secret showed up. */
function expectNoSecret(where: string, text: string): void {
  const leaked = [marker, services.s3.secretAccessKey, secrets.pulsarTokenKey].filter((secret) =>
    text.includes(secret),
  );
  expect(leaked, `${where} contains a secret`).toEqual([]);
}

/**
 * A cluster broker config with every secret set: etcd password, S3 secret, BookKeeper password, the admin API's bearer
 * token, a SCRAM user's password (on a SASL_PLAINTEXT listener) and the Pulsar token secret key.
 */
function secretConfig(overrides: { etcdPassword?: string; s3Secret?: string; adminPort?: number } = {}): object {
  const { zookeeper, bookkeeper } = services;
  if (zookeeper === undefined || bookkeeper === undefined) throw new Error("the test services run no BookKeeper");
  const config = testConfig("cluster", {
    overrides: {
      kafka: {
        listeners: [{ name: "SASL", host: "127.0.0.1", port: 0, securityProtocol: "SASL_PLAINTEXT" }],
        sasl: { scramUsers: [{ name: SASL_USER, password: secrets.saslPassword, mechanism: "SCRAM-SHA-512" }] },
      },
      pulsar: { port: 0, auth: { authenticationEnabled: true, tokenSecretKey: secrets.pulsarTokenKey } },
      admin: { port: overrides.adminPort ?? 0, auth: { tokenSecret: secrets.adminToken } },
      log: { level: "debug" },
    },
  }) as { storage: { objects: object } };
  return {
    ...config,
    storage: {
      ...config.storage,
      defaultProfile: "BOOKKEEPER_WAL_ONLY",
      metadata: secured.metadataConfig({ password: overrides.etcdPassword ?? secrets.etcdPassword }),
      objects: { ...config.storage.objects, secretAccessKey: overrides.s3Secret ?? services.s3.secretAccessKey },
      bookkeeper: {
        zooKeeper: zookeeper.connectString,
        ledgersRoot: bookkeeper.zkLedgersRoot,
        password: secrets.bookkeeperPassword,
      },
    },
  };
}

function spawnWith(config: object, args: readonly string[] = [], env: Record<string, string> = {}): BrokerProcess {
  const file = path.join(tempDir("secrets-cfg"), "broker.json");
  writeFileSync(file, JSON.stringify(config));
  const broker = BrokerProcess.spawn(["--config", file, ...args], env);
  processes.push(broker);
  return broker;
}

async function outputOf(broker: BrokerProcess): Promise<{ code: number | null; output: string }> {
  const { code } = await broker.exited;
  return { code, output: `${broker.stdout.join("\n")}\n${broker.stderr.join("")}` };
}

/** The status and body of a GET with the admin token (or `token`). */
async function text(url: string, token = secrets.adminToken): Promise<string> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  return `${String(response.status)} ${await response.text()}`;
}

describe("secrets stay out of logs, metrics, the admin API and errors", () => {
  test("a serving broker at debug level, then one whose etcd password was changed under it", async () => {
    const adminPort = await freePort();
    const broker = spawnWith(secretConfig({ adminPort }), ["--log-level", "debug"]);
    const started = await broker.ready();
    const kafka = new Kafka({
      brokers: [String(started["kafka"])],
      logLevel: logLevel.NOTHING,
      retry: { retries: 2 },
      sasl: { mechanism: "scram-sha-512", username: SASL_USER, password: secrets.saslPassword },
    });
    const topic = `secrets-${randomBytes(4).toString("hex")}`;
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [{ value: "one" }, { value: "two" }] });
    const kafkaAdmin = kafka.admin();
    await kafkaAdmin.connect();
    const described = await kafkaAdmin.describeConfigs({
      includeSynonyms: true,
      resources: [
        { type: ConfigResourceTypes.BROKER, name: "0" },
        { type: ConfigResourceTypes.TOPIC, name: topic },
      ],
    });
    await kafkaAdmin.disconnect();
    expect(described.resources).toHaveLength(2);
    expectNoSecret("DescribeConfigs", JSON.stringify(described));
    const admin = `http://127.0.0.1:${String(adminPort)}`;
    const answers = [
      await text(`${admin}/metrics`),
      await text(`${admin}/healthz`),
      await text(`${admin}/admin/v1`),
      await text(`${admin}/admin/v1/brokers`),
      await text(`${admin}/admin/v1/topics`),
      await text(`${admin}/admin/v1/topics/${topic}`),
    ];
    const refused = await text(`${admin}/admin/v1/topics`, `wrong-${marker}`);
    answers.push(refused);
    expect(answers[0]).toMatch(/^200 /);
    expect(answers[5]).toMatch(/^200 /);
    expect(refused).toMatch(/^401 /);
    for (const [index, answer] of answers.entries()) expectNoSecret(`admin answer ${String(index)}`, answer);

    // The broker's etcd token is dropped and its password no longer valid: its metadata calls now fail.
    await root.user(secured.etcd.auth.username).setPassword(secrets.etcdPasswordChanged);
    const failed = await producer
      .send({ topic: `${topic}-new`, acks: -1, timeout: 5_000, messages: [{ value: "three" }] })
      .then(
        () => false,
        () => true,
      );
    await producer.disconnect();
    expect(failed).toBe(true);
    expectNoSecret("/metrics after the failures", await text(`${admin}/metrics`));
    await broker.stop("SIGTERM");
    const { output } = await outputOf(broker);
    expect(output).toContain("not authenticated");
    expectNoSecret("the broker's output", output);
    await root.user(secured.etcd.auth.username).setPassword(secrets.etcdPassword);
  });

  test("failed start-ups, configuration errors and --print-config name no secret", async () => {
    const runs = {
      wrongEtcdPassword: spawnWith(secretConfig({ etcdPassword: secrets.wrongEtcdPassword })),
      badS3Secret: spawnWith(secretConfig({ s3Secret: secrets.wrongS3Secret })),
      configError: spawnWith(secretConfig(), ["--kafka-port", "99999", "--etcd-password", secrets.wrongEtcdPassword]),
      configErrorOnSecret: spawnWith({}, ["--etcd-password", secrets.wrongEtcdPassword, "--data-dir", tempDir("cfg")], {
        NEREUS_S3_SECRET_ACCESS_KEY: secrets.wrongS3Secret,
      }),
      printConfig: spawnWith(secretConfig(), ["--print-config", "--bookkeeper-password", secrets.bookkeeperPassword], {
        NEREUS_S3_SECRET_ACCESS_KEY: secrets.wrongS3Secret,
      }),
    };
    const results = Object.fromEntries(
      await Promise.all(Object.entries(runs).map(async ([name, broker]) => [name, await outputOf(broker)] as const)),
    );
    for (const [name, result] of Object.entries(results)) expectNoSecret(name, result.output);
    expect(results["wrongEtcdPassword"]).toMatchObject({ code: 1 });
    expect(results["wrongEtcdPassword"]?.output).toContain('refused the credentials of user "nereus"');
    expect(results["badS3Secret"]).toMatchObject({ code: 1 });
    expect(results["badS3Secret"]?.output).toContain("cannot use the object store");
    expect(results["configError"]).toMatchObject({ code: 2 });
    expect(results["configError"]?.output).toContain("kafka.port (from --kafka-port=99999)");
    expect(results["configErrorOnSecret"]).toMatchObject({ code: 2 });
    expect(results["configErrorOnSecret"]?.output).toMatch(/bad config: .*storage\.metadata/);
    expect(results["printConfig"]).toMatchObject({ code: 0 });
    const printed = JSON.parse(runs.printConfig.stdout.join("\n")) as {
      storage: {
        metadata: { password: string };
        objects: { secretAccessKey: string };
        bookkeeper: { password: string };
      };
      admin: { auth: { tokenSecret: string } };
      kafka: { sasl: { scramUsers: { password: string }[] } };
      pulsar: { auth: { tokenSecretKey: string } };
    };
    expect(printed.storage.metadata.password).toBe("<redacted>");
    expect(printed.storage.objects.secretAccessKey).toBe("<redacted>");
    expect(printed.storage.bookkeeper.password).toBe("<redacted>");
    expect(printed.admin.auth.tokenSecret).toBe("<redacted>");
    expect(printed.kafka.sasl.scramUsers[0]?.password).toBe("<redacted>");
    expect(printed.pulsar.auth.tokenSecretKey).toBe("<redacted>");
  });
});
