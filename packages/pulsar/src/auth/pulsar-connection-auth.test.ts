// PulsarConnection with authentication and authorization on, driven in process: CONNECT without or with bad
// credentials is refused with ERROR(AuthenticationError) and closes the connection before any later command is
// served (no topic is created for it); expired credentials are refreshed through AUTH_CHALLENGE / AUTH_RESPONSE or
// the connection closes; PRODUCER, SUBSCRIBE, LOOKUP, PARTITIONED_METADATA and GET_TOPICS_OF_NAMESPACE need the
// role's permission and are answered AuthorizationError without it.
import { randomBytes } from "node:crypto";
import { SignJWT } from "jose";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness, type TestClient } from "../../test/broker-harness.js";
import { parseNamespaceName, parseTopicName } from "../topics/topic-name.js";
import {
  LookupOutcome,
  PartitionedMetadataOutcome,
  ProtocolVersion,
  ServerError,
  SubscriptionType,
} from "../protocol/index.js";
import type { PulsarAuthOptions } from "./broker-auth.js";
import { createTokenVerifier } from "./token-verifier.js";

const SECRET = randomBytes(32);
const TOPIC = "persistent://acme/billing/orders";
const NO_REQUEST_ID = 2n ** 64n - 1n;
const encoder = new TextEncoder();

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function start(options: { authorization?: boolean; refreshCheckMs?: number } = {}): BrokerHarness {
  const auth: PulsarAuthOptions = {
    authentication: {
      verifier: createTokenVerifier({ key: { kind: "secret", bytes: SECRET } }),
      refreshCheckMs: options.refreshCheckMs ?? 60_000,
    },
    ...(options.authorization === true ? { authorization: { superUserRoles: ["admin"], cacheMs: 0 } } : {}),
  };
  harness = new BrokerHarness({ auth });
  return harness;
}

async function token(role: string, expiresInSeconds?: number): Promise<string> {
  const jwt = new SignJWT({ sub: role }).setProtectedHeader({ alg: "HS256" });
  if (expiresInSeconds !== undefined) jwt.setExpirationTime(Math.floor(Date.now() / 1_000) + expiresInSeconds);
  return jwt.sign(SECRET);
}

function connect(client: TestClient, credentials?: string, supportsAuthRefresh = true): void {
  client.send({
    type: "CONNECT",
    body: {
      clientVersion: "test",
      protocolVersion: ProtocolVersion.AUTH_CHALLENGE_AND_KEY_SHARED + 5,
      ...(credentials === undefined ? {} : { authMethodName: "token", authData: encoder.encode(credentials) }),
      featureFlags: { supportsAuthRefresh },
    },
  });
}

async function topicCount(h: BrokerHarness): Promise<number> {
  return (await h.broker.context.ledgers.topics.list("acme", "billing")).length;
}

describe("CONNECT with authentication on", () => {
  for (const [what, credentials] of [
    ["no credentials", undefined],
    ["a token signed with another key", "wrong"],
    ["a malformed token", "not.a.jwt"],
  ] as const) {
    test(`${what}: ERROR(AuthenticationError), closed, later commands never served`, async () => {
      const h = start();
      const client = h.connect();
      const data =
        credentials === "wrong"
          ? await new SignJWT({ sub: "admin" }).setProtectedHeader({ alg: "HS256" }).sign(randomBytes(32))
          : credentials;
      connect(client, data);
      client.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 1n, requestId: 1n } });
      client.send({
        type: "SUBSCRIBE",
        body: { topic: TOPIC, subscription: "s", subType: SubscriptionType.Shared, consumerId: 1n, requestId: 2n },
      });
      const [error] = await client.waitFor("ERROR");
      expect(error).toEqual({
        requestId: NO_REQUEST_ID,
        error: ServerError.AuthenticationError,
        message: "Failed to authenticate",
      });
      await client.waitUntil(() => client.closedReason !== undefined);
      expect(client.received.map((frame) => frame.command.type)).toEqual(["ERROR"]);
      expect(await topicCount(h)).toBe(0);
    });
  }

  test("an expired token is refused; a valid one is CONNECTED and may produce while authorization is off", async () => {
    const h = start();
    const expired = h.connect();
    connect(expired, await token("alice", -5));
    await expired.waitFor("ERROR");
    expect(expired.commands("ERROR")[0]?.error).toBe(ServerError.AuthenticationError);
    const client = h.connect();
    connect(client, await token("alice", 60));
    await client.waitFor("CONNECTED");
    client.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 1n, requestId: 1n } });
    await client.waitFor("PRODUCER_SUCCESS");
  });
});

describe("credential refresh", () => {
  test("an expired connection is challenged; a fresh token for the same role keeps it open", async () => {
    const client = start({ refreshCheckMs: 300 }).connect();
    const fresh = await token("alice", 60);
    connect(client, await token("alice", 1));
    await client.waitFor("CONNECTED");
    await client.waitUntil(() => client.commands("AUTH_CHALLENGE").length > 0);
    const [challenge] = client.commands("AUTH_CHALLENGE");
    expect(challenge?.challenge?.authMethodName).toBe("token");
    expect(new TextDecoder().decode(challenge?.challenge?.authData)).toBe("PulsarAuthRefresh");
    client.send({
      type: "AUTH_RESPONSE",
      body: { response: { authMethodName: "token", authData: encoder.encode(fresh) } },
    });
    await new Promise((resolve) => setTimeout(resolve, 700));
    client.send({ type: "PING", body: {} });
    await client.waitFor("PONG");
    expect(client.commands("AUTH_CHALLENGE")).toHaveLength(1);
    expect(client.closedReason).toBeUndefined();
  });

  test("a challenge left unanswered, a client that cannot refresh, or a refresh to another role closes the connection", async () => {
    // A check every 800 ms leaves the switching client time to answer its challenge under load.
    const h = start({ refreshCheckMs: 800 });
    const otherRole = await token("admin", 60);
    const silent = h.connect();
    connect(silent, await token("alice", 1));
    const legacy = h.connect();
    connect(legacy, await token("alice", 1), false);
    const switching = h.connect();
    connect(switching, await token("alice", 1));
    await switching.waitUntil(() => switching.commands("AUTH_CHALLENGE").length > 0);
    switching.send({
      type: "AUTH_RESPONSE",
      body: { response: { authMethodName: "token", authData: encoder.encode(otherRole) } },
    });
    for (const client of [silent, legacy, switching]) await client.waitUntil(() => client.closedReason !== undefined);
    expect(silent.commands("AUTH_CHALLENGE")).toHaveLength(1);
    expect(legacy.commands("AUTH_CHALLENGE")).toHaveLength(0);
    expect(switching.commands("ERROR")[0]?.error).toBe(ServerError.AuthenticationError);
  });
});

describe("authorization", () => {
  test("a role without permissions is refused every topic operation; nothing is created for it", async () => {
    const h = start({ authorization: true });
    const client = h.connect();
    connect(client, await token("alice"));
    await client.waitFor("CONNECTED");
    client.send({ type: "LOOKUP", body: { topic: TOPIC, requestId: 1n } });
    client.send({ type: "PARTITIONED_METADATA", body: { topic: TOPIC, requestId: 2n } });
    client.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 1n, requestId: 3n } });
    client.send({
      type: "SUBSCRIBE",
      body: { topic: TOPIC, subscription: "s", subType: SubscriptionType.Shared, consumerId: 1n, requestId: 4n },
    });
    client.send({ type: "GET_TOPICS_OF_NAMESPACE", body: { namespace: "acme/billing", requestId: 5n } });
    const [lookup] = await client.waitFor("LOOKUP_RESPONSE");
    expect(lookup).toMatchObject({ response: LookupOutcome.Failed, error: ServerError.AuthorizationError });
    const [metadata] = await client.waitFor("PARTITIONED_METADATA_RESPONSE");
    expect(metadata).toMatchObject({
      response: PartitionedMetadataOutcome.Failed,
      error: ServerError.AuthorizationError,
    });
    const errors = await client.waitFor("ERROR", 3);
    expect(errors.map((error) => [error.requestId, error.error])).toEqual([
      [3n, ServerError.AuthorizationError],
      [4n, ServerError.AuthorizationError],
      [5n, ServerError.AuthorizationError],
    ]);
    expect(errors[0]?.message).toBe("Client is not authorized to Publish");
    expect(errors[1]?.message).toBe("Client is not authorized to subscribe");
    expect(client.closedReason).toBeUndefined();
    expect(await topicCount(h)).toBe(0);
  });

  test("produce on the namespace allows PRODUCER, not SUBSCRIBE; consume on the topic then allows it", async () => {
    const h = start({ authorization: true });
    const permissions = h.broker.context.auth.permissions;
    await permissions.grantOnNamespace(parseNamespaceName("acme/billing"), "alice", ["produce"]);
    const client = h.connect();
    connect(client, await token("alice"));
    await client.waitFor("CONNECTED");
    client.send({ type: "LOOKUP", body: { topic: TOPIC, requestId: 1n } });
    await client.waitFor("LOOKUP_RESPONSE");
    expect(client.commands("LOOKUP_RESPONSE")[0]?.response).toBe(LookupOutcome.Connect);
    client.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 1n, requestId: 2n } });
    await client.waitFor("PRODUCER_SUCCESS");
    const subscribe = (requestId: bigint) =>
      client.send({
        type: "SUBSCRIBE",
        body: { topic: TOPIC, subscription: "s", subType: SubscriptionType.Shared, consumerId: requestId, requestId },
      });
    subscribe(3n);
    expect((await client.waitFor("ERROR"))[0]).toMatchObject({ requestId: 3n, error: ServerError.AuthorizationError });
    await permissions.grantOnTopic(parseTopicName(TOPIC), "alice", ["consume"]);
    subscribe(4n);
    await client.waitUntil(() => client.commands("SUCCESS").some((success) => success.requestId === 4n));
  });

  test("with the Prefix subscription auth mode a consumer's subscription must start with its role", async () => {
    const h = start({ authorization: true });
    const permissions = h.broker.context.auth.permissions;
    const namespace = parseNamespaceName("acme/billing");
    await permissions.grantOnNamespace(namespace, "alice", ["consume"]);
    await permissions.setSubscriptionAuthMode(namespace, "Prefix");
    const client = h.connect();
    connect(client, await token("alice"));
    await client.waitFor("CONNECTED");
    const subscribe = (subscription: string, requestId: bigint) =>
      client.send({
        type: "SUBSCRIBE",
        body: { topic: TOPIC, subscription, subType: SubscriptionType.Shared, consumerId: requestId, requestId },
      });
    subscribe("audit", 1n);
    const [refused] = await client.waitFor("ERROR");
    expect(refused).toMatchObject({ requestId: 1n, error: ServerError.AuthorizationError });
    expect(refused?.message).toContain("prefixed by the authentication role, like alice-");
    subscribe("alice-audit", 2n);
    await client.waitUntil(() => client.commands("SUCCESS").some((success) => success.requestId === 2n));
  });

  test("a super user may do anything", async () => {
    const client = start({ authorization: true }).connect();
    connect(client, await token("admin"));
    await client.waitFor("CONNECTED");
    client.send({ type: "PRODUCER", body: { topic: TOPIC, producerId: 1n, requestId: 1n } });
    await client.waitFor("PRODUCER_SUCCESS");
  });
});
