// A broker on a secured etcd (mutual TLS, user/password authentication) and s3proxy with credentials: it serves
// Kafka clients; a wrong password, a user whose role may only read, a CA that did not sign etcd's certificate and a
// missing TLS file each stop the start-up with one line naming what failed and never the password.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { etcd3ClientOptions, generateTestCertificates } from "@nereus/test-services";
import { Etcd3 } from "etcd3";
import { Kafka, logLevel } from "kafkajs";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { BrokerProcess, startInProcess, tempDir, testConfig } from "./support/broker-fixture.js";
import { type SecuredEtcd, startSecuredEtcd } from "./support/secured-etcd.js";

let secured: SecuredEtcd;
const processes: BrokerProcess[] = [];

beforeAll(async () => {
  secured = await startSecuredEtcd();
}, 60_000);

afterAll(async () => {
  await secured?.stop();
});

afterEach(async () => {
  for (const broker of processes.splice(0)) await broker.stop("SIGKILL");
});

/** Spawns the broker with `config` as its config file and waits for it to exit. */
async function startFailure(config: object): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const file = path.join(tempDir("etcd-cfg"), "broker.json");
  const { writeFileSync } = await import("node:fs");
  writeFileSync(file, JSON.stringify(config));
  const broker = BrokerProcess.spawn(["--config", file]);
  processes.push(broker);
  const { code } = await broker.exited;
  // Node warns once (DEP0123) that the TLS server name of an IP endpoint is ignored; the broker's own lines follow.
  const stderr = broker.stderr
    .join("")
    .split(/(?<=\n)/)
    .filter((line) => !line.startsWith("(node:") && !line.startsWith("(Use `node"))
    .join("");
  return { code, stderr, stdout: broker.stdout.join("\n") };
}

function clusterConfig(metadata: ReturnType<SecuredEtcd["metadataConfig"]>): object {
  const config = testConfig("cluster", { overrides: { pulsar: { enabled: false }, log: { level: "info" } } });
  return { ...config, storage: { ...config.storage, metadata } };
}

describe("a broker on etcd with mutual TLS and authentication", () => {
  test("serves produce and fetch, and its start-up line names the TLS mode and the user only", async () => {
    const started = await startInProcess(clusterConfig(secured.metadataConfig()));
    try {
      const kafka = new Kafka({ brokers: [started.bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 2 } });
      const topic = `secured-${randomBytes(4).toString("hex")}`;
      const producer = kafka.producer();
      await producer.connect();
      await producer.send({ topic, acks: -1, messages: [{ value: "over-tls" }, { value: "authenticated" }] });
      await producer.disconnect();
      const consumer = kafka.consumer({ groupId: `${topic}-group` });
      await consumer.connect();
      await consumer.subscribe({ topic, fromBeginning: true });
      const values: string[] = [];
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${String(values.length)} records in 30 s`)), 30_000);
        void consumer.run({
          eachMessage: async ({ message }) => {
            values.push(message.value?.toString() ?? "");
            if (values.length === 2) {
              clearTimeout(timer);
              resolve();
            }
          },
        });
      });
      await consumer.disconnect();
      expect(values).toEqual(["over-tls", "authenticated"]);
      const startLine = started.logs.find((line) => line.includes('"broker started"')) ?? "";
      expect(JSON.parse(startLine)).toMatchObject({ etcdTls: "mutual", etcdUser: "nereus" });
      expect(started.logs.join("\n")).not.toContain(secured.etcd.auth.password);
    } finally {
      await started.broker.close();
    }
  });

  test("a wrong password, a read-only user, an unknown CA and a missing CA file each stop the start-up saying so", async () => {
    const { endpoint, tls, auth } = secured.etcd;
    const readerPassword = `reader-${randomBytes(8).toString("hex")}`;
    const root = new Etcd3({
      ...etcd3ClientOptions(endpoint, tls),
      auth: { username: auth.rootUser, password: auth.rootPassword },
    });
    try {
      await root.user("reader").create(readerPassword);
      await root
        .role("reader")
        .create()
        .then((role) => role.grant({ permission: "Read", range: root.range({ prefix: "/nereus/" }) }));
      await root.user("reader").addRole("reader");
    } finally {
      root.close();
    }
    const wrongPassword = `wrong-${randomBytes(8).toString("hex")}`;
    const stray = await generateTestCertificates(tempDir("stray-ca"), { caName: "stray" });
    const missing = path.join(tempDir("no-ca"), "ca.pem");
    // The four start-ups run at once (each is a process of its own).
    const [wrong, reader, unknownCa, noFile] = await Promise.all([
      startFailure(clusterConfig(secured.metadataConfig({ password: wrongPassword }))),
      startFailure(clusterConfig(secured.metadataConfig({ username: "reader", password: readerPassword }))),
      startFailure(clusterConfig(secured.metadataConfig({ caFile: stray.caFile }))),
      startFailure(clusterConfig(secured.metadataConfig({ caFile: missing }))),
    ]);
    expect(wrong?.code).toBe(1);
    expect(wrong?.stderr).toBe(
      `nereus: cannot start: cannot use etcd at ${endpoint}: etcd at ${endpoint} refused the credentials of user "nereus" (wrong user name or password) (METADATA_UNAVAILABLE)\n`,
    );
    expect(reader?.code).toBe(1);
    expect(reader?.stderr).toMatch(
      /^nereus: cannot start: etcd user "reader" may not read and write the keys of cluster t[0-9a-f]+ under \/nereus\/clusters\/t[0-9a-f]+\/ \(its role needs readwrite on the prefix \/nereus\/\): etcd txn not authorized: [^\n]*permission denied[^\n]*\n$/,
    );
    expect(unknownCa?.code).toBe(1);
    expect(unknownCa?.stderr).toMatch(
      /^nereus: cannot start: cannot use etcd at https:\/\/127\.0\.0\.1:\d+: TLS with etcd at https:\/\/127\.0\.0\.1:\d+ failed \(etcd's server certificate does not chain to the configured CA file\): [^\n]+\n$/,
    );
    expect(noFile?.code).toBe(1);
    expect(noFile?.stderr).toBe(
      `nereus: cannot start: cannot read storage.metadata.tls.caFile ${missing}: no such file\n`,
    );
    for (const result of [wrong, reader, unknownCa, noFile]) {
      const output = `${result?.stdout ?? ""}${result?.stderr ?? ""}`;
      for (const secret of [wrongPassword, readerPassword, auth.password]) expect(output).not.toContain(secret);
    }
  });
});
