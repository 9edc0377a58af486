// Apache Pulsar's Java clients 4.2.4 (PulsarClient and PulsarAdmin with AuthenticationToken; the harness's
// "pulsar-client" Maven set) against a broker with `pulsar.auth` on: tokens signed in the test with jose (HS256, the
// broker's secret key file). The driver (clients/JavaPulsarAuth.java) prints one line per fact. Over pulsar+ssl://
// (the test's CA): clients without a token, with an expired one and with one signed by another key are refused
// (AuthenticationException); a role with `produce` on the namespace produces and is refused a subscription
// (AuthorizationException) and the admin API (NotAuthorizedException); the super user grants `consume` through
// PulsarAdmin and the role consumes everything; with the subscription auth mode Prefix the role may only subscribe
// under names starting with it; after the namespace grant is revoked the role's next producer is refused. Over
// pulsar://, long-lived connections: a producer whose token expires is challenged (AUTH_CHALLENGE) and keeps its
// connection by answering with a fresh token; one that can only present the expired token is disconnected and its
// sends fail.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { JavaProgram } from "@nereus/test-services";
import { SignJWT } from "jose";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { type InProcessBroker, startInProcess, testConfig } from "./support/broker-fixture.js";
import { DRIVER_JVM_ARGS, compileJavaClient, runJavaClient } from "./support/java-client.js";
import { tempDir } from "./support/temp-dirs.js";
import { type TestCertificates, generateTestCertificates } from "./support/test-certificates.js";

const SECRET = randomBytes(32);
let program: JavaProgram | undefined;
const running: InProcessBroker[] = [];

beforeAll(async () => {
  program = await compileJavaClient("pulsar-client", "JavaPulsarAuth");
}, 600_000);

afterAll(() => program?.dispose());
afterEach(async () => {
  for (const broker of running.splice(0)) await broker.broker.close("test finished");
});

async function token(role: string, options: { expiresAtMs?: number; key?: Uint8Array } = {}): Promise<string> {
  const jwt = new SignJWT({ sub: role }).setProtectedHeader({ alg: "HS256" }).setIssuedAt();
  if (options.expiresAtMs !== undefined) jwt.setExpirationTime(Math.floor(options.expiresAtMs / 1_000));
  return jwt.sign(options.key ?? SECRET);
}

async function startSecured(certs?: TestCertificates): Promise<InProcessBroker> {
  const dir = tempDir("pulsar-auth");
  const keyFile = path.join(dir, "secret.key");
  writeFileSync(keyFile, SECRET, { mode: 0o600 });
  const auth = {
    authenticationEnabled: true,
    authorizationEnabled: true,
    tokenSecretKeyFile: keyFile,
    superUserRoles: ["admin"],
    authenticationRefreshCheckSeconds: 1,
  };
  const tls =
    certs === undefined ? {} : { tls: { port: 0, certFile: certs.serverCertFile, keyFile: certs.serverKeyFile } };
  const broker = await startInProcess(
    testConfig("embedded", { overrides: { pulsar: { enabled: true, auth, ...tls } } }),
  );
  running.push(broker);
  return broker;
}

function facts(lines: readonly string[]): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  for (const line of lines) {
    const [key = "", ...values] = line.split(" ");
    byKey.set(key, [...(byKey.get(key) ?? []), values.join(" ")]);
  }
  return byKey;
}

describe("Java Pulsar clients with token authentication and authorization", () => {
  test("over pulsar+ssl://: refusals, produce and consume by permission, grants and revokes through PulsarAdmin", async () => {
    const certs = await generateTestCertificates();
    const broker = await startSecured(certs);
    const topic = `persistent://acme-${randomBytes(3).toString("hex")}/apps/orders`;
    const lines = await runJavaClient(
      program!,
      [
        "scenario",
        `service=pulsar+ssl://localhost:${String(broker.broker.pulsarTlsPort)}`,
        `trustCerts=${certs.caFile}`,
        `admin=http://127.0.0.1:${String(broker.broker.adminPort)}`,
        `topic=${topic}`,
        `superToken=${await token("admin")}`,
        `aliceToken=${await token("alice", { expiresAtMs: Date.now() + 600_000 })}`,
        `expiredToken=${await token("admin", { expiresAtMs: Date.now() - 60_000 })}`,
        `wrongToken=${await token("admin", { key: randomBytes(32) })}`,
        "count=20",
      ],
      85_000,
    );
    const seen = facts(lines);
    expect(seen.get("UNEXPECTED_SUCCESS")).toBeUndefined();
    for (const refusal of ["NO_TOKEN", "EXPIRED_TOKEN", "WRONG_KEY_TOKEN"]) {
      expect(seen.get(refusal), refusal).toEqual(["AuthenticationException"]);
    }
    expect(seen.get("SENT")).toEqual(["20"]);
    expect(seen.get("SUBSCRIBE_WITHOUT_CONSUME")).toEqual(["AuthorizationException"]);
    expect(seen.get("ADMIN_AS_ALICE")).toEqual(["NotAuthorizedException"]);
    expect(seen.get("NAMESPACE_PERMISSIONS")).toEqual(["alice=produce"]);
    expect(seen.get("TOPIC_PERMISSIONS")).toEqual(["alice=consume+produce"]);
    expect(seen.get("RECEIVED")).toEqual(["20"]);
    expect(seen.get("SUBSCRIPTION_AUTH_MODE")).toEqual(["Prefix"]);
    expect(seen.get("SUBSCRIBE_WITHOUT_ROLE_PREFIX")).toEqual(["AuthorizationException"]);
    expect(seen.get("SUBSCRIBED_WITH_ROLE_PREFIX")).toEqual(["alice-audit"]);
    expect(seen.get("PRODUCE_AFTER_REVOKE")).toEqual(["AuthorizationException"]);
  }, 120_000);

  test("an expiring token is refreshed through AUTH_CHALLENGE; an expired one that cannot be is disconnected", async () => {
    const broker = await startSecured();
    const dir = tempDir("pulsar-tokens");
    const service = `pulsar://127.0.0.1:${String(broker.broker.pulsarPort)}`;
    const warmToken = await token("admin");
    const run = (name: string) => {
      const tokenFile = path.join(dir, `${name}.token`);
      const args = [
        "refresh",
        `service=${service}`,
        `tokenFile=${tokenFile}`,
        `warmToken=${warmToken}`,
        `topic=persistent://public/default/${name}`,
        "durationMs=14000",
      ];
      return { tokenFile, jvm: program!.spawn(args, { jvmArgs: DRIVER_JVM_ARGS }) };
    };
    const [refreshing, stale] = [run("refreshing"), run("stale")];
    const jvms = [refreshing.jvm, stale.jvm];
    const printed = (jvm: (typeof jvms)[number], word: string) => jvm.lines.some((line) => line.startsWith(word));
    try {
      // The short-lived token is written once both JVMs are up, so that they connect well before it expires.
      await expect
        .poll(() => jvms.every((jvm) => printed(jvm, "STARTED")), { timeout: 90_000, interval: 100 })
        .toBe(true);
      const shortLived = await token("admin", { expiresAtMs: Date.now() + 10_000 });
      writeFileSync(stale.tokenFile, shortLived);
      writeFileSync(refreshing.tokenFile, shortLived);
      await expect.poll(() => printed(refreshing.jvm, "CONNECTED"), { timeout: 9_000, interval: 50 }).toBe(true);
      writeFileSync(refreshing.tokenFile, await token("admin", { expiresAtMs: Date.now() + 600_000 }));
      const codes = await Promise.all(jvms.map((jvm) => jvm.exited));
      expect(codes, jvms.map((jvm) => jvm.stderr().slice(-2_000)).join("\n")).toEqual([0, 0]);
    } finally {
      for (const jvm of jvms) jvm.child.kill("SIGKILL");
    }
    const kept = facts(jvms[0]!.lines);
    expect(kept.get("FAILED")).toEqual(["0"]);
    expect(Number(kept.get("SENT")?.[0])).toBeGreaterThan(20);
    expect(kept.get("DISCONNECTED")).toEqual(["false"]);
    expect(Number(kept.get("TOKEN_READS")?.[0])).toBeGreaterThanOrEqual(2);
    const dropped = facts(jvms[1]!.lines);
    expect(dropped.get("DISCONNECTED")).toEqual(["true"]);
    expect(Number(dropped.get("FAILED")?.[0])).toBeGreaterThan(0);
  }, 120_000);
});
