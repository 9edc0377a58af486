// The secured etcd of the harness: served over mutual TLS with the run's generated CA, with authentication enabled.
// A client with the run's CA, client certificate and the broker user's password reads and writes under the Nereus
// prefix only; a client without a client certificate or with a wrong password is refused, and a call without a
// token runs as the user its client certificate names.
import fs from "node:fs";
import { Etcd3, type IOptions } from "etcd3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { etcd3ClientOptions, startServices, type RunningServices } from "../src/index.js";

let services: RunningServices;

beforeAll(async () => {
  services = await startServices({ etcd: { tls: true, auth: true }, extraTools: false });
}, 60_000);

afterAll(async () => {
  await services?.stop();
});

function clientWith(options: Partial<IOptions>): Etcd3 {
  const { etcd } = services;
  return new Etcd3({
    ...etcd3ClientOptions(etcd.endpoint, etcd.tls),
    ...options,
  });
}

async function failure(call: () => Promise<unknown>): Promise<string> {
  try {
    await call();
  } catch (error) {
    return String(error);
  }
  throw new Error("the call succeeded");
}

describe("secured etcd (mutual TLS + authentication)", () => {
  it("describes an https endpoint, the TLS files and both users", () => {
    const { etcd } = services;
    expect(etcd.endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(etcd.tls?.clientCertAuth).toBe(true);
    expect(etcd.auth?.username).toBe("nereus");
    expect(etcd.auth?.keyPrefix).toBe("/nereus/");
  });

  it("lets the broker user read and write under /nereus/ only", async () => {
    const auth = services.etcd.auth;
    const client = clientWith({ auth: { username: auth?.username ?? "", password: auth?.password ?? "" } });
    try {
      await client.put("/nereus/clusters/harness/probe").value("v");
      expect(await client.get("/nereus/clusters/harness/probe").string()).toBe("v");
      expect(await failure(() => client.put("/other/key").value("v").exec())).toMatch(/permission denied/);
    } finally {
      client.close();
    }
  });

  it("refuses a wrong password and a client without certificate", async () => {
    const auth = services.etcd.auth;
    const wrong = clientWith({ auth: { username: auth?.username ?? "", password: "wrong" } });
    const noCert = clientWith({
      credentials: { rootCertificate: fs.readFileSync(services.etcd.tls?.caFile ?? "") },
      auth: { username: auth?.username ?? "", password: auth?.password ?? "" },
    });
    try {
      expect(await failure(() => wrong.get("/nereus/x").string())).toMatch(/authentication failed/);
      expect(await failure(() => noCert.get("/nereus/x").string())).toMatch(/certificate|handshake|No connection/i);
    } finally {
      for (const c of [wrong, noCert]) c.close();
    }
  });

  it("takes the client certificate's CN as the user of a call without a token", async () => {
    const byCertificate = clientWith({});
    try {
      await byCertificate.put("/nereus/clusters/harness/by-certificate").value("v").exec();
      expect(await failure(() => byCertificate.put("/other/key").value("v").exec())).toMatch(/permission denied/);
    } finally {
      byCertificate.close();
    }
  });
});
