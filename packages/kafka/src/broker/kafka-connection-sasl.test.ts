import { ErrorCode, NereusError } from "@nereus/core";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, type TestClient } from "../../test/broker-harness.js";
import { plainLogin, saslClient, scramLogin, upsertion } from "../../test/sasl-harness.js";
import { ScramTestClient } from "../../test/scram-client.js";
import type { KafkaApiHandlers, RequestContext } from "./kafka-api-handler.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import type { KafkaSaslOptions } from "../security/sasl/sasl-options.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const SASL: KafkaSaslOptions = {
  mechanisms: ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"],
  plainUsers: new Map([["admin", "admin-secret"]]),
};
const heartbeatBody = { groupId: "g", generationId: 1, memberId: "m", groupInstanceId: null };
const metadataBody = {
  topics: [],
  allowAutoTopicCreation: false,
  includeClusterAuthorizedOperations: false,
  includeTopicAuthorizedOperations: false,
};

/** A broker whose Heartbeat handler records the contexts it is called with. */
function spiedBroker(options: Partial<ConstructorParameters<typeof BrokerHarness>[0]> = {}): RequestContext[] {
  const seen: RequestContext[] = [];
  const groupHandlers: KafkaApiHandlers = {
    Heartbeat: {
      handle: (context) => {
        seen.push(context);
        return Promise.resolve({ throttleTimeMs: 0, errorCode: 0 });
      },
    },
  };
  harness = new BrokerHarness({ sasl: SASL, groupHandlers, ...options });
  return seen;
}

async function expectClosing(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(NereusError.hasCode(error, ErrorCode.DECODE_ERROR)).toBe(true);
}

function counter(name: string): number {
  return harness?.broker.metrics.collect().find((family) => family.name === name)?.samples[0]?.value ?? Number.NaN;
}

async function createScramUser(user: string, mechanism: 1 | 2, password: string): Promise<void> {
  const admin = harness!.connect();
  const response = await admin.request(51, 0, { deletions: [], upsertions: [upsertion(user, mechanism, password)] });
  expect(response.results).toEqual([{ user, errorCode: 0, errorMessage: null }]);
}

describe("SASL connections", () => {
  test("before authentication a data request closes the connection and never reaches its handler", async () => {
    const seen = spiedBroker();
    for (const attempt of [
      (client: TestClient) => client.request(12, 3, heartbeatBody),
      (client: TestClient) => client.request(3, 12, metadataBody),
    ]) {
      const client = saslClient(harness!);
      await expectClosing(attempt(client));
      await expectClosing(client.request(18, 3, { clientSoftwareName: "t", clientSoftwareVersion: "1" }));
    }
    const afterHandshake = saslClient(harness!);
    expect((await afterHandshake.request(17, 1, { mechanism: "PLAIN" })).errorCode).toBe(0);
    await expectClosing(afterHandshake.request(12, 3, heartbeatBody));
    expect(seen).toEqual([]);
  });

  test("ApiVersions is answered before authentication and lists the SASL APIs", async () => {
    spiedBroker();
    const versions = await saslClient(harness!).request(18, 3, { clientSoftwareName: "t", clientSoftwareVersion: "1" });
    expect(versions.apiKeys.filter((api) => api.apiKey === 17 || api.apiKey === 36)).toEqual([
      { apiKey: 17, minVersion: 0, maxVersion: 1 },
      { apiKey: 36, minVersion: 0, maxVersion: 2 },
    ]);
  });

  test("PLAIN: the configured user authenticates and its requests carry User:<name>", async () => {
    const seen = spiedBroker();
    const client = saslClient(harness!);
    const handshake = await client.request(17, 1, { mechanism: "PLAIN" });
    expect(handshake).toEqual({ errorCode: 0, mechanisms: ["SCRAM-SHA-512", "SCRAM-SHA-256", "PLAIN"] });
    const response = await client.request(36, 2, { authBytes: new TextEncoder().encode("\0admin\0admin-secret") });
    expect(response).toMatchObject({ errorCode: 0, errorMessage: null, sessionLifetimeMs: 0 });
    await client.request(12, 3, heartbeatBody);
    expect(seen.map((context) => context.principal)).toEqual([{ type: "User", name: "admin" }]);
    expect(counter("nereus_kafka_authentications_succeeded_total")).toBe(1);
  });

  test.each(["SCRAM-SHA-256", "SCRAM-SHA-512"] as const)(
    "%s: a user created through AlterUserScramCredentials authenticates",
    async (mechanism) => {
      const seen = spiedBroker();
      await createScramUser("alice", mechanism === "SCRAM-SHA-256" ? 1 : 2, "alice-pw");
      const client = saslClient(harness!);
      expect((await scramLogin(client, mechanism, "alice", "alice-pw")).errorCode).toBe(0);
      await client.request(12, 4, heartbeatBody);
      expect(seen.map((context) => context.principal.name)).toEqual(["alice"]);
    },
  );

  test("a wrong password is answered SASL_AUTHENTICATION_FAILED, logged without the password, and the connection finishes", async () => {
    const seen = spiedBroker();
    await createScramUser("alice", 2, "alice-pw");
    const client = saslClient(harness!);
    const response = await scramLogin(client, "SCRAM-SHA-512", "alice", "not-the-password");
    expect(response).toMatchObject({
      errorCode: KafkaErrorCode.SASL_AUTHENTICATION_FAILED,
      errorMessage:
        "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512",
    });
    expect(client.connection.finished).toBe(true);
    await expectClosing(client.request(12, 4, heartbeatBody));
    expect(seen).toEqual([]);
    const plain = saslClient(harness!);
    expect(await plainLogin(plain, "admin", "wrong-secret")).toMatchObject({
      errorCode: KafkaErrorCode.SASL_AUTHENTICATION_FAILED,
      errorMessage: "Authentication failed: Invalid username or password",
    });
    expect(counter("nereus_kafka_authentications_failed_total")).toBe(2);
    const failures = harness!.events.filter((event) => event.message === "SASL authentication failed");
    expect(failures.map((event) => [event.fields?.["user"], event.fields?.["peer"]])).toEqual([
      ["alice", "10.0.0.7:5000"],
      ["admin", "10.0.0.7:5000"],
    ]);
    expect(JSON.stringify(harness!.events)).not.toMatch(/not-the-password|wrong-secret/);
  });

  test("a mechanism that is not enabled is answered UNSUPPORTED_SASL_MECHANISM with the enabled ones, then closes", async () => {
    harness = new BrokerHarness({ sasl: { mechanisms: ["SCRAM-SHA-256"] } });
    const client = saslClient(harness);
    expect(await client.request(17, 1, { mechanism: "PLAIN" })).toEqual({
      errorCode: KafkaErrorCode.UNSUPPORTED_SASL_MECHANISM,
      mechanisms: ["SCRAM-SHA-256"],
    });
    expect(client.connection.finished).toBe(true);
  });

  test("a request sent while a SASL token is being verified closes the connection", async () => {
    const seen = spiedBroker();
    await createScramUser("alice", 2, "alice-pw");
    const client = saslClient(harness!);
    await client.request(17, 1, { mechanism: "SCRAM-SHA-512" });
    const first = client.request(36, 2, { authBytes: new TextEncoder().encode("n,,n=alice,r=abcdef") });
    const pipelined = client.request(12, 4, heartbeatBody);
    await expect(first).resolves.toMatchObject({ errorCode: 0 });
    await expectClosing(pipelined);
    expect(seen).toEqual([]);
  });

  test("re-authentication: the session lifetime is announced; past it the next request closes; the same user renews it", async () => {
    let now = 1_000_000;
    const seen = spiedBroker({ sasl: { ...SASL, reauthenticationMs: 60_000 }, clock: () => now });
    const expiring = saslClient(harness!);
    expect((await plainLogin(expiring, "admin", "admin-secret")).sessionLifetimeMs).toBe(60_000);
    const renewing = saslClient(harness!);
    await plainLogin(renewing, "admin", "admin-secret");
    now += 50_000;
    expect((await plainLogin(renewing, "admin", "admin-secret")).errorCode).toBe(0);
    now += 20_000;
    await expectClosing(expiring.request(12, 4, heartbeatBody));
    await renewing.request(12, 4, heartbeatBody);
    expect(seen.length).toBe(1);
    const v0 = saslClient(harness!);
    await v0.request(17, 1, { mechanism: "PLAIN" });
    const response = await v0.request(36, 0, { authBytes: new TextEncoder().encode("\0admin\0admin-secret") });
    expect(response.errorCode).toBe(0);
  });

  test("re-authentication as another user or with another mechanism is refused and closes", async () => {
    spiedBroker({
      sasl: {
        ...SASL,
        plainUsers: new Map([
          ["admin", "a"],
          ["other", "o"],
        ]),
      },
    });
    await createScramUser("admin", 1, "a");
    const switching = saslClient(harness!);
    await plainLogin(switching, "admin", "a");
    expect(await plainLogin(switching, "other", "o")).toMatchObject({
      errorCode: KafkaErrorCode.SASL_AUTHENTICATION_FAILED,
      errorMessage: "Cannot change principals during re-authentication from User.admin: User.other",
    });
    expect(switching.connection.finished).toBe(true);
    const otherMechanism = saslClient(harness!);
    await plainLogin(otherMechanism, "admin", "a");
    expect(await scramLogin(otherMechanism, "SCRAM-SHA-256", "admin", "a")).toMatchObject({
      errorCode: KafkaErrorCode.SASL_AUTHENTICATION_FAILED,
      errorMessage:
        "SASL mechanism 'SCRAM-SHA-256' requested by client is not supported for re-authentication of mechanism 'PLAIN'",
    });
  });

  test("SaslAuthenticate outside an exchange and SaslHandshake on a PLAINTEXT listener get ILLEGAL_SASL_STATE", async () => {
    spiedBroker();
    const client = saslClient(harness!);
    await plainLogin(client, "admin", "admin-secret");
    expect(await client.request(36, 1, { authBytes: new Uint8Array(0) })).toMatchObject({
      errorCode: KafkaErrorCode.ILLEGAL_SASL_STATE,
    });
    await client.request(12, 4, heartbeatBody);
    const plaintext = harness!.connect();
    expect(await plaintext.request(17, 1, { mechanism: "PLAIN" })).toEqual({
      errorCode: KafkaErrorCode.ILLEGAL_SASL_STATE,
      mechanisms: [],
    });
  });

  test("after a v0 handshake the tokens travel raw; a failed raw exchange closes without an answer", async () => {
    const seen = spiedBroker();
    await createScramUser("alice", 2, "alice-pw");
    const raw = async (client: TestClient, token: string): Promise<string | undefined> => {
      const response = await client.connection.handleFrame(new TextEncoder().encode(token));
      if (response === undefined) return undefined;
      expect(new DataView(response.buffer, response.byteOffset).getInt32(0)).toBe(response.length - 4);
      return new TextDecoder().decode(response.subarray(4));
    };
    const client = saslClient(harness!);
    expect((await client.request(17, 0, { mechanism: "SCRAM-SHA-512" })).errorCode).toBe(0);
    const scram = new ScramTestClient("sha512", "alice", "alice-pw");
    const serverFirst = await raw(client, scram.first());
    expect(await raw(client, scram.final(serverFirst ?? ""))).toBe(scram.expectedServerFinal);
    await client.request(12, 4, heartbeatBody);
    expect(seen.map((context) => context.principal.name)).toEqual(["alice"]);

    const wrong = saslClient(harness!);
    await wrong.request(17, 0, { mechanism: "SCRAM-SHA-512" });
    const intruder = new ScramTestClient("sha512", "alice", "guess");
    const first = await raw(wrong, intruder.first());
    await expectClosing(raw(wrong, intruder.final(first ?? "")));
    await expectClosing(wrong.request(12, 4, heartbeatBody));
    expect(seen).toHaveLength(1);
  });

  test("a SASL listener on a broker without SASL settings refuses every mechanism", async () => {
    harness = new BrokerHarness();
    const client = saslClient(harness);
    expect(await client.request(17, 1, { mechanism: "PLAIN" })).toEqual({
      errorCode: KafkaErrorCode.UNSUPPORTED_SASL_MECHANISM,
      mechanisms: [],
    });
  });
});
