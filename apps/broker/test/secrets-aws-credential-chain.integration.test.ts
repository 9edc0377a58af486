// S3 credentials from the AWS default credential chain: a broker whose configuration names no S3 keys takes them
// from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, or from a shared credentials file (AWS_SHARED_CREDENTIALS_FILE and
// AWS_PROFILE), and serves Kafka clients on s3proxy, which requires credentials; a wrong secret in the environment
// stops the start-up naming the object store and not the secret.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { loadServices } from "@nereus/test-services";
import { Kafka, logLevel } from "kafkajs";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerProcess, tempDir, testConfig } from "./support/broker-fixture.js";

const { s3 } = loadServices();
const processes: BrokerProcess[] = [];

afterEach(async () => {
  for (const broker of processes.splice(0)) await broker.stop("SIGKILL");
});

/** A cluster config file without S3 keys. */
function configFileWithoutKeys(): string {
  const config = testConfig("cluster", { overrides: { pulsar: { enabled: false }, log: { level: "info" } } }) as {
    storage: { objects: Record<string, unknown> };
  };
  delete config.storage.objects["accessKeyId"];
  delete config.storage.objects["secretAccessKey"];
  const file = path.join(tempDir("aws-chain"), "broker.json");
  writeFileSync(file, JSON.stringify(config));
  return file;
}

/** The environment of a broker that must find its S3 credentials on its own (no instance metadata lookups). */
function chainEnvironment(variables: Record<string, string>): Record<string, string> {
  return {
    AWS_EC2_METADATA_DISABLED: "true",
    AWS_ACCESS_KEY_ID: "",
    AWS_SECRET_ACCESS_KEY: "",
    AWS_PROFILE: "",
    AWS_SHARED_CREDENTIALS_FILE: path.join(tempDir("no-aws"), "credentials"),
    AWS_CONFIG_FILE: path.join(tempDir("no-aws"), "config"),
    ...variables,
  };
}

async function produceAndCount(broker: BrokerProcess): Promise<number> {
  const started = await broker.ready();
  const kafka = new Kafka({ brokers: [String(started["kafka"])], logLevel: logLevel.NOTHING, retry: { retries: 2 } });
  const producer = kafka.producer();
  await producer.connect();
  const [result] = await producer.send({
    topic: `chain-${randomBytes(4).toString("hex")}`,
    acks: -1,
    messages: [{ value: "a" }, { value: "b" }, { value: "c" }],
  });
  await producer.disconnect();
  return Number(result?.baseOffset ?? -1) + 3;
}

describe("S3 credentials from the AWS default chain", () => {
  test("from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", async () => {
    const broker = BrokerProcess.spawn(
      ["--config", configFileWithoutKeys()],
      chainEnvironment({ AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.secretAccessKey }),
    );
    processes.push(broker);
    expect(await produceAndCount(broker)).toBe(3);
  });

  test("from a shared credentials file and AWS_PROFILE", async () => {
    const credentials = path.join(tempDir("aws-file"), "credentials");
    writeFileSync(
      credentials,
      `[default]\naws_access_key_id = nobody\naws_secret_access_key = nothing\n\n[nereus]\naws_access_key_id = ${s3.accessKeyId}\naws_secret_access_key = ${s3.secretAccessKey}\n`,
      { mode: 0o600 },
    );
    const broker = BrokerProcess.spawn(
      ["--config", configFileWithoutKeys()],
      chainEnvironment({ AWS_SHARED_CREDENTIALS_FILE: credentials, AWS_PROFILE: "nereus" }),
    );
    processes.push(broker);
    expect(await produceAndCount(broker)).toBe(3);
  });

  test("a wrong secret in the environment stops the start-up without showing it", async () => {
    const wrong = `wrong-${randomBytes(8).toString("hex")}`;
    const broker = BrokerProcess.spawn(
      ["--config", configFileWithoutKeys()],
      chainEnvironment({ AWS_ACCESS_KEY_ID: s3.accessKeyId, AWS_SECRET_ACCESS_KEY: wrong }),
    );
    processes.push(broker);
    const { code } = await broker.exited;
    const stderr = broker.stderr.join("");
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^nereus: cannot start: cannot use the object store s3:\/\/nereus-test\/\S+ at http:\/\/127\.0\.0\.1:\d+: /m,
    );
    expect(stderr + broker.stdout.join("\n")).not.toContain(wrong);
  });
});
