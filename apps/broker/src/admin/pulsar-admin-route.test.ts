// The /admin/v2 route over HTTP, on an admin server with a Pulsar broker over in-memory stores: JSON answers and
// Pulsar's error bodies, path decoding as Pulsar's clients encode names, the body bound (413), malformed bodies
// and paths (400), unserved methods (405), 64-bit ids kept exact both ways, no route without the Pulsar side, and
// bearer tokens checked while Pulsar authentication is on (401 / 403).
import net from "node:net";
import {
  GenerationZeroVisibleCoordinator,
  StableHeadCoordinator,
  type StreamStore,
  createStreamStore,
} from "@nereus/core";
import { InMemoryMetadataStore, InMemoryObjectStore, MemoryWalProvider } from "@nereus/core/testing";
import { randomBytes } from "node:crypto";
import {
  type PulsarAuthOptions,
  type PulsarBroker,
  createPulsarBroker,
  createTokenVerifier,
  parseJsonText,
} from "@nereus/pulsar";
import { SignJWT } from "jose";
import { encodeMessageEntry } from "@nereus/pulsar/protocol";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerConfigSchema } from "../config/broker-config.js";
import type { BrokerLogger } from "../logging/broker-logger.js";
import { type AdminServer, startAdminServer } from "./admin-server.js";
import { createAdminAuthenticator } from "./admin-auth.js";
import { MAX_PULSAR_ADMIN_BODY_BYTES, gateWithPulsarTokens, pulsarAdminRoutes } from "./pulsar-admin-route.js";

const CLUSTER = "route-test";
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

interface Running {
  readonly server: AdminServer;
  readonly broker: PulsarBroker;
  readonly warnings: string[];
  url(path: string): string;
}

async function start(options: { pulsar?: boolean; auth?: PulsarAuthOptions } = {}): Promise<Running> {
  const metadata = new InMemoryMetadataStore();
  const wal = new MemoryWalProvider({ walKind: "OBJECT" });
  const streams: StreamStore = createStreamStore({
    metadata,
    cluster: CLUSTER,
    writerId: "route-test",
    walWriters: [wal],
    walReaders: [wal],
    completionCoordinators: [new StableHeadCoordinator(), new GenerationZeroVisibleCoordinator()],
  });
  const broker = createPulsarBroker({
    ledgers: { metadata, objects: new InMemoryObjectStore(), streams, cluster: CLUSTER, defaultProfile: "OBJECT_WAL" },
    advertisedUrl: "pulsar://127.0.0.1:6650",
    ...(options.auth === undefined ? {} : { auth: options.auth }),
  });
  closers.push(
    () => streams.close(),
    () => broker.close(),
  );
  const warnings: string[] = [];
  const logger: BrokerLogger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (message) => warnings.push(message),
    error: (message) => warnings.push(message),
  };
  const config = BrokerConfigSchema.parse({ cluster: CLUSTER, dataDir: "/nonexistent" });
  const routes = pulsarAdminRoutes({
    config,
    storage: { metadata },
    pulsar: options.pulsar === false ? undefined : { broker },
    logger,
  });
  const server = await startAdminServer({
    host: "127.0.0.1",
    port: 0,
    health: () => ({ ok: true }),
    metrics: () => "",
    routes,
  });
  closers.push(() => server.close());
  return { server, broker, warnings, url: (path) => `http://127.0.0.1:${String(server.port)}/admin/v2/${path}` };
}

/** Sends raw bytes; resolves with everything the server wrote until it closed the connection. */
function raw(port: number, request: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("close", () => resolve(received));
    socket.on("error", (error: NodeJS.ErrnoException) =>
      error.code === "ECONNRESET" ? resolve(received) : reject(error),
    );
    socket.write(request);
  });
}

describe("the /admin/v2 route", () => {
  test("answers JSON, with the cluster's service URLs on the bound admin port", async () => {
    const running = await start();
    const clusters = await fetch(running.url("clusters"));
    expect(clusters.status).toBe(200);
    expect(clusters.headers.get("content-type")).toBe("application/json");
    expect(await clusters.json()).toEqual([CLUSTER]);
    expect(await (await fetch(running.url(`clusters/${CLUSTER}`))).json()).toEqual({
      serviceUrl: `http://127.0.0.1:${String(running.server.port)}`,
      brokerServiceUrl: "pulsar://127.0.0.1:6650",
    });
    const missing = await fetch(running.url("clusters/elsewhere"));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ reason: "Cluster does not exist" });
  });

  test("decodes names as Pulsar's clients encode them (+ and %20 are a space); 204 has no body", async () => {
    const running = await start();
    const created = await fetch(running.url("persistent/public/default/my+topic%C3%A9"), { method: "PUT" });
    expect(created.status).toBe(204);
    expect(await created.text()).toBe("");
    const again = await fetch(running.url("persistent/public/default/my%20topic%C3%A9"), {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({ reason: "This topic already exists" });
    expect(await (await fetch(running.url("persistent/public/default"))).json()).toEqual([
      "persistent://public/default/my topicé",
    ]);
    const malformed = await fetch(running.url("persistent/public/default/%zz"), { method: "PUT" });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ reason: 'Malformed percent-encoding in path segment "%zz"' });
  });

  test("bodies that are not UTF-8 JSON are 400; an empty body is no body", async () => {
    const running = await start();
    const path = running.url("persistent/public/default/t/partitions");
    for (const body of ["{", "3 4", Buffer.from([0x33, 0xff])]) {
      const response = await fetch(path, { method: "PUT", body });
      expect(response.status, String(body)).toBe(400);
      expect(Object.keys((await response.json()) as object)).toEqual(["reason"]);
    }
    const empty = await fetch(path, { method: "PUT", body: "" });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ reason: "The body must be the number of partitions" });
    expect((await fetch(path, { method: "PUT", body: " 2 " })).status).toBe(204);
  });

  test("a body over the bound is 413 and the connection closes, declared or streamed", async () => {
    const running = await start();
    const declared = await raw(
      running.server.port,
      `PUT /admin/v2/persistent/public/default/t/partitions HTTP/1.1\r\nhost: x\r\ncontent-length: ${String(
        MAX_PULSAR_ADMIN_BODY_BYTES + 1,
      )}\r\n\r\n1`,
    );
    expect(declared).toMatch(/^HTTP\/1\.1 413 /);
    expect(declared).toContain("connection: close");
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const chunks = Array.from({ length: MAX_PULSAR_ADMIN_BODY_BYTES / chunk.length + 2 }, () =>
      Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]),
    );
    const streamed = await raw(
      running.server.port,
      Buffer.concat([
        Buffer.from("PUT /admin/v2/persistent/public/default/t/partitions HTTP/1.1\r\nhost: x\r\n"),
        Buffer.from("transfer-encoding: chunked\r\n\r\n"),
        ...chunks,
      ]),
    );
    expect(streamed).toMatch(/^HTTP\/1\.1 413 /);
    expect(await (await fetch(running.url("persistent/public/default"))).json()).toEqual([]);
  });

  test("methods other than GET, PUT, POST and DELETE are 405", async () => {
    const running = await start();
    for (const method of ["PATCH", "HEAD", "OPTIONS"]) {
      expect((await fetch(running.url("clusters"), { method })).status, method).toBe(405);
    }
    expect(await (await fetch(running.url("clusters"), { method: "POST" })).json()).toEqual({
      reason: "POST is not served on this path",
    });
  });

  test("64-bit ledger ids travel exactly in both directions", async () => {
    const running = await start();
    const ledger = await running.broker.context.ledgers.open("persistent://public/default/ids");
    const latest = '{"ledgerId":9223372036854775807,"entryId":9223372036854775807,"partitionIndex":-1}';
    const created = await fetch(running.url("persistent/public/default/ids/subscription/s"), {
      method: "PUT",
      body: latest,
    });
    expect(created.status).toBe(204);
    const text = await (await fetch(running.url("persistent/public/default/ids/internalStats"))).text();
    expect(text).toContain(`"ledgerId":${ledger.ledgerId.toString()}`);
    expect(parseJsonText(text)).toMatchObject({ ledgers: [{ ledgerId: ledger.ledgerId }] });
    const reset = await fetch(running.url("persistent/public/default/ids/subscription/s/resetcursor"), {
      method: "POST",
      body: `{"ledgerId":${ledger.ledgerId.toString()},"entryId":0}`,
    });
    expect(reset.status).toBe(204);
    expect(running.warnings).toEqual([]);
  });

  test("a peeked message is its payload bytes with X-Pulsar headers", async () => {
    const running = await start();
    const ledger = await running.broker.context.ledgers.open("persistent://public/default/peek");
    const entry = encodeMessageEntry(
      { producerName: "writer", sequenceId: 7n, publishTime: 1_700_000_000_000n },
      new Uint8Array([0, 1, 2, 255]),
    );
    await ledger.addEntry(entry);
    await fetch(running.url("persistent/public/default/peek/subscription/s"), {
      method: "PUT",
      body: '{"ledgerId":-1,"entryId":-1}',
    });
    const peeked = await fetch(running.url("persistent/public/default/peek/subscription/s/position/1"));
    expect(peeked.status).toBe(200);
    expect(peeked.headers.get("content-type")).toBe("application/octet-stream");
    expect(peeked.headers.get("x-pulsar-message-id")).toBe(`${ledger.ledgerId.toString()}:0`);
    expect(peeked.headers.get("x-pulsar-sequence-id")).toBe("7");
    expect(peeked.headers.get("x-pulsar-publish-time")).toBe("2023-11-14T22:13:20.000Z");
    expect([...new Uint8Array(await peeked.arrayBuffer())]).toEqual([0, 1, 2, 255]);
  });

  test("without the Pulsar listener there is no /admin/v2", async () => {
    const running = await start({ pulsar: false });
    expect((await fetch(running.url("clusters"))).status).toBe(404);
  });

  test("with Pulsar authentication on, a Bearer token names the caller's role: 401 without a valid one", async () => {
    const secret = randomBytes(32);
    const running = await start({
      auth: {
        authentication: { verifier: createTokenVerifier({ key: { kind: "secret", bytes: secret } }) },
        authorization: { superUserRoles: ["admin"] },
      },
    });
    const token = (role: string, key: Uint8Array = secret) =>
      new SignJWT({ sub: role }).setProtectedHeader({ alg: "HS256" }).sign(key);
    const call = async (authorization?: string) =>
      fetch(running.url("tenants"), authorization === undefined ? {} : { headers: { authorization } });
    const missing = await call();
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ reason: "Authentication required" });
    for (const header of [`Bearer ${await token("admin", randomBytes(32))}`, "Basic YWRtaW46YWRtaW4=", "Bearer"]) {
      expect((await call(header)).status, header).toBe(401);
    }
    expect((await call(`Bearer ${await token("alice")}`)).status).toBe(403);
    const allowed = await call(`bearer ${await token("admin")}`);
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual(["public"]);
  });

  test("the admin gate leaves /admin/v2 to Pulsar tokens while Pulsar authentication is on, and only then", () => {
    const gate = createAdminAuthenticator(
      BrokerConfigSchema.parse({ admin: { auth: { tokens: [{ name: "ops", secret: "0123456789abcdef0123" }] } } }).admin
        .auth,
    );
    const pulsarAuth = { authenticationEnabled: true, tokenSecretKeyFile: "/k" };
    const on = BrokerConfigSchema.parse({ pulsar: { auth: pulsarAuth } });
    const off = BrokerConfigSchema.parse({});
    const withTokens = gateWithPulsarTokens(gate, on);
    expect(withTokens.isPublic("/admin/v2/tenants")).toBe(true);
    expect(withTokens.isPublic("/admin/v1/topics")).toBe(false);
    expect(withTokens.isPublic("/healthz")).toBe(true);
    expect(gateWithPulsarTokens(gate, off).isPublic("/admin/v2/tenants")).toBe(false);
    const pulsarOff = BrokerConfigSchema.parse({ pulsar: { enabled: false, auth: pulsarAuth } });
    expect(gateWithPulsarTokens(gate, pulsarOff).isPublic("/admin/v2/tenants")).toBe(false);
  });
});
