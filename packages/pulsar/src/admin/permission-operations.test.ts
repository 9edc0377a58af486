// The permission endpoints of the admin API and who may call the API while authentication and authorization are on:
// grants on namespaces and topics as PulsarAdmin reads and writes them, their checks (400, 404, 412), their removal
// with the namespace or topic, and the 401 / 403 answers for callers without a role or without the right one.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerHarness } from "../../test/broker-harness.js";
import type { PulsarAuthOptions } from "../auth/broker-auth.js";
import { createTokenVerifier } from "../auth/token-verifier.js";
import type { AdminMethod, AdminResponse } from "./admin-exchange.js";
import type { JsonValue } from "./json-text.js";
import { createPulsarAdmin } from "./pulsar-admin.js";

let harness: BrokerHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const AUTH: PulsarAuthOptions = {
  authentication: { verifier: createTokenVerifier({ key: { kind: "secret", bytes: randomBytes(32) } }) },
  authorization: { superUserRoles: ["admin"], cacheMs: 0 },
};

function setup(auth?: PulsarAuthOptions) {
  const h = (harness = new BrokerHarness(auth === undefined ? {} : { auth }));
  const admin = createPulsarAdmin({
    broker: h.broker.context,
    metadata: h.metadata,
    cluster: "pulsar-broker-test",
    serviceUrl: "http://broker.test:8080",
  });
  return (method: AdminMethod, path: string, body?: JsonValue, role?: string): Promise<AdminResponse> =>
    admin.handle({
      method,
      segments: path.split("/").map(decodeURIComponent),
      query: new Map(),
      body,
      ...(role === undefined ? {} : { role }),
    });
}

const NS = "namespaces/acme/billing";
const TOPIC = "persistent/acme/billing/orders";

describe("permission endpoints", () => {
  test("namespace grants: POST sets a role's actions, GET lists them, DELETE takes them", async () => {
    const call = setup();
    await call("PUT", "tenants/acme", { adminRoles: [], allowedClusters: ["pulsar-broker-test"] });
    expect((await call("GET", `${NS}/permissions`)).status).toBe(404);
    await call("PUT", NS);
    expect(await call("GET", `${NS}/permissions`)).toEqual({ status: 200, body: {} });
    expect((await call("POST", `${NS}/permissions/alice`, ["consume", "produce"])).status).toBe(204);
    expect((await call("POST", `${NS}/permissions/bob`, ["consume"])).status).toBe(204);
    expect((await call("GET", `${NS}/permissions`)).body).toEqual({ alice: ["produce", "consume"], bob: ["consume"] });
    expect((await call("GET", NS)).body).toMatchObject({ auth_policies: { namespace_auth: { bob: ["consume"] } } });
    expect((await call("DELETE", `${NS}/permissions/alice`)).status).toBe(204);
    expect((await call("GET", `${NS}/permissions`)).body).toEqual({ bob: ["consume"] });
    expect((await call("DELETE", NS)).status).toBe(204);
    await call("PUT", NS);
    expect((await call("GET", `${NS}/permissions`)).body).toEqual({});
  });

  test("topic grants merge with the namespace's; revoking what only the namespace grants is a 412", async () => {
    const call = setup();
    await call("PUT", "tenants/acme", { adminRoles: [], allowedClusters: ["pulsar-broker-test"] });
    await call("PUT", NS);
    await call("POST", `${NS}/permissions/alice`, ["produce"]);
    expect((await call("POST", `${TOPIC}/permissions/alice`, ["consume"])).status).toBe(204);
    expect((await call("POST", `${TOPIC}-partition-1/permissions/carol`, ["produce"])).status).toBe(204);
    expect((await call("GET", `${TOPIC}/permissions`)).body).toEqual({
      alice: ["produce", "consume"],
      carol: ["produce"],
    });
    expect((await call("DELETE", `${TOPIC}/permissions/carol`)).status).toBe(204);
    expect(await call("DELETE", `${TOPIC}/permissions/carol`)).toEqual({
      status: 412,
      body: { reason: "Permissions are not set at the topic level" },
    });
  });

  test("the subscription auth mode: GET (None by default), POST Prefix or None; the namespace must exist", async () => {
    const call = setup();
    expect((await call("GET", `${NS}/subscriptionAuthMode`)).status).toBe(404);
    await call("PUT", "tenants/acme", { adminRoles: [], allowedClusters: ["pulsar-broker-test"] });
    await call("PUT", NS);
    expect(await call("GET", `${NS}/subscriptionAuthMode`)).toEqual({ status: 200, body: "None" });
    expect((await call("POST", `${NS}/subscriptionAuthMode`, "Prefix")).status).toBe(204);
    expect(await call("GET", `${NS}/subscriptionAuthMode`)).toEqual({ status: 200, body: "Prefix" });
    expect((await call("GET", NS)).body).toMatchObject({ subscription_auth_mode: "Prefix" });
    expect((await call("POST", `${NS}/subscriptionAuthMode`, "Suffix")).status).toBe(400);
    expect((await call("POST", `${NS}/subscriptionAuthMode`, "None")).status).toBe(204);
    expect((await call("GET", `${NS}/subscriptionAuthMode`)).body).toBe("None");
  });

  test("bad bodies and roles are 400s", async () => {
    const call = setup();
    for (const body of [undefined, [], ["produce", "admin"], "produce", { produce: true }] as (
      JsonValue | undefined
    )[]) {
      expect((await call("POST", `${TOPIC}/permissions/alice`, body)).status).toBe(400);
    }
    expect((await call("POST", `${TOPIC}/permissions/`, ["produce"])).status).toBe(400);
    expect((await call("POST", `${TOPIC}/permissions/${"r".repeat(2_000)}`, ["produce"])).status).toBe(400);
  });
});

describe("admin access with authentication and authorization on", () => {
  test("no role is a 401; a super user may do anything", async () => {
    const call = setup(AUTH);
    expect(await call("GET", "tenants")).toEqual({ status: 401, body: { reason: "Authentication required" } });
    expect((await call("GET", "tenants", undefined, "admin")).status).toBe(200);
    expect((await call("PUT", "tenants/acme", { adminRoles: ["ops"], allowedClusters: [] }, "admin")).status).toBe(204);
  });

  test("a tenant admin manages its tenant only; other roles get 403s", async () => {
    const call = setup(AUTH);
    await call("PUT", "tenants/acme", { adminRoles: ["ops"], allowedClusters: [] }, "admin");
    expect((await call("PUT", NS, undefined, "ops")).status).toBe(204);
    expect((await call("POST", `${NS}/permissions/alice`, ["produce"], "ops")).status).toBe(204);
    expect((await call("POST", `${TOPIC}/permissions/alice`, ["consume"], "ops")).status).toBe(204);
    expect((await call("GET", "tenants/acme", undefined, "ops")).status).toBe(200);
    expect((await call("GET", "clusters", undefined, "alice")).status).toBe(200);
    for (const [method, path, role] of [
      ["POST", `${NS}/permissions/alice`, "alice"],
      ["GET", `${TOPIC}/stats`, "alice"],
      ["PUT", "namespaces/public/x", "ops"],
      ["DELETE", "tenants/acme", "ops"],
      ["PUT", "tenants/other", "ops"],
      ["GET", "tenants", "ops"],
    ] as const) {
      expect((await call(method, path, ["produce"], role)).status, `${method} ${path} as ${role}`).toBe(403);
    }
    expect(harness!.broker.context.auth.authorization?.isSuperUser("ops")).toBe(false);
  });

  test("with authorization off, any authenticated role may call anything", async () => {
    const call = setup({ authentication: AUTH.authentication! });
    expect((await call("GET", "tenants")).status).toBe(401);
    expect((await call("GET", "tenants", undefined, "alice")).status).toBe(200);
  });
});
