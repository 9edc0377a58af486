// The etcd metadata store against a secured etcd (mutual TLS with the harness's generated CA, authentication with a
// user whose role may use /nereus/ only): the whole SPI conformance suite passes; a wrong password, an unknown CA,
// a missing client certificate and bad options fail with messages naming what failed and never the password; and
// after etcd invalidates the store's token (a password change does), calls re-authenticate and go on, and a watch
// created afterwards (which etcd checks against its stream's dropped token) is created on a new stream.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ErrorCode, NereusError, type MetadataStore, type WatchEvent } from "@nereus/core";
import { describeMetadataStoreConformance } from "@nereus/core/testing";
import {
  etcd3ClientOptions,
  generateTestCertificates,
  startServices,
  type EtcdAuthDescription,
  type EtcdTlsDescription,
  type RunningServices,
} from "@nereus/test-services";
import { Etcd3 } from "etcd3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createEtcdMetadataStore,
  type EtcdMetadataStore,
  type EtcdMetadataStoreOptions,
} from "../src/etcd-metadata-store.js";

let services: RunningServices;
let endpoint: string;
let tls: EtcdTlsDescription;
let auth: EtcdAuthDescription;
let root: Etcd3;
const runPrefix = `/nereus/test-metadata/${randomUUID()}/`;
let testNumber = 0;
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "nereus-etcd-secured-"));

beforeAll(async () => {
  services = await startServices({ etcd: { tls: true, auth: true }, extraTools: false });
  const etcd = services.etcd;
  if (etcd.tls === undefined || etcd.auth === undefined) throw new Error("etcd was not started secured");
  endpoint = etcd.endpoint;
  tls = etcd.tls;
  auth = etcd.auth;
  root = new Etcd3({
    ...etcd3ClientOptions(endpoint, tls),
    auth: { username: auth.rootUser, password: auth.rootPassword },
  });
}, 60_000);

afterAll(async () => {
  root?.close();
  await services?.stop();
  fs.rmSync(scratch, { recursive: true, force: true });
});

function securedOptions(overrides: Partial<EtcdMetadataStoreOptions> = {}): EtcdMetadataStoreOptions {
  return {
    endpoints: [endpoint],
    tls: { ca: fs.readFileSync(tls.caFile), cert: fs.readFileSync(tls.certFile), key: fs.readFileSync(tls.keyFile) },
    auth: { username: auth.username, password: auth.password },
    dialTimeoutMs: 3_000,
    ...overrides,
  };
}

async function connectFailure(options: EtcdMetadataStoreOptions): Promise<NereusError> {
  const error = await createEtcdMetadataStore(options).then(
    async (store) => {
      await store.close();
      throw new Error("connected");
    },
    (caught: unknown) => caught,
  );
  if (!(error instanceof NereusError)) throw error;
  return error;
}

describeMetadataStoreConformance("EtcdMetadataStore conformance (mutual TLS + authentication)", async () => {
  const prefix = `${runPrefix}${testNumber++}/`;
  const store = await createEtcdMetadataStore(securedOptions());
  return { store, prefix, cleanup: async () => void (await root.delete().prefix(prefix)) };
});

describe("EtcdMetadataStore on a secured etcd", () => {
  it("a wrong password fails the connect naming the user, never the password", async () => {
    const password = `wrong-${randomUUID()}`;
    const error = await connectFailure(securedOptions({ auth: { username: auth.username, password } }));
    expect(error.code).toBe(ErrorCode.METADATA_UNAVAILABLE);
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(`refused the credentials of user "${auth.username}"`);
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain(password);
    expect(error.message).not.toContain(auth.password);
  });

  it("an unknown CA fails the connect as a TLS failure", async () => {
    const stray = await generateTestCertificates(path.join(scratch, "stray"), { caName: "stray-ca" });
    const error = await connectFailure(
      securedOptions({
        tls: {
          ca: fs.readFileSync(stray.caFile),
          cert: fs.readFileSync(tls.certFile),
          key: fs.readFileSync(tls.keyFile),
        },
      }),
    );
    expect(error.code).toBe(ErrorCode.METADATA_UNAVAILABLE);
    expect(error.message).toMatch(
      /^TLS with etcd at https:\/\/127\.0\.0\.1:\d+ failed \(etcd's server certificate does not chain to the configured CA file\): /,
    );
  });

  it("a missing client certificate fails the connect when etcd requires one", async () => {
    const error = await connectFailure(securedOptions({ tls: { ca: fs.readFileSync(tls.caFile) } }));
    expect(error.code).toBe(ErrorCode.METADATA_UNAVAILABLE);
    expect(error.message).toMatch(
      /^TLS with etcd at https:\/\/127\.0\.0\.1:\d+ failed \(etcd refused the client certificate/,
    );
    expect(error.message).not.toContain(auth.password);
  });

  it("refuses TLS with an http endpoint and a certificate without its key before any I/O", async () => {
    const http = await connectFailure(securedOptions({ endpoints: ["http://127.0.0.1:1"] }));
    expect(http.code).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(http.message).toContain("https://");
    const half = await connectFailure(
      securedOptions({ tls: { ca: fs.readFileSync(tls.caFile), cert: fs.readFileSync(tls.certFile) } }),
    );
    expect(half.code).toBe(ErrorCode.INVALID_ARGUMENT);
    expect(half.message).toContain("certificate and key go together");
  });

  it("re-authenticates after etcd invalidated its token: reads, txns, leases and watches go on", async () => {
    const store: EtcdMetadataStore = await createEtcdMetadataStore(securedOptions());
    const prefix = `${runPrefix}reauth/`;
    const events: WatchEvent[] = [];
    const watch = await store.watch(prefix, (event) => events.push(event));
    try {
      await put(store, `${prefix}before`);
      // Setting the same password again makes etcd drop every token of the user.
      await root.user(auth.username).setPassword(auth.password);
      expect(await store.get(`${prefix}before`)).toBeDefined();
      await root.user(auth.username).setPassword(auth.password);
      await put(store, `${prefix}after`);
      await root.user(auth.username).setPassword(auth.password);
      const lateEvents: WatchEvent[] = [];
      const late = await store.watch(`${prefix}late/`, (event) => lateEvents.push(event));
      await put(store, `${prefix}late/key`);
      const lateDeadline = Date.now() + 5_000;
      while (lateEvents.length < 1 && Date.now() < lateDeadline) await new Promise((r) => setTimeout(r, 50));
      await late.close();
      expect(lateEvents.map((event) => event.key)).toEqual([`${prefix}late/key`]);
      await root.user(auth.username).setPassword(auth.password);
      const lease = await store.grantLease(5_000);
      await lease.keepAlive();
      await lease.revoke();
      const deadline = Date.now() + 5_000;
      while (events.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(events.map((event) => event.key)).toEqual([`${prefix}before`, `${prefix}after`, `${prefix}late/key`]);
      // A new password drops the tokens too, and the old one no longer authenticates: the token really was renewed.
      await root.user(auth.username).setPassword(`${auth.password}-changed`);
      const refused = await store.get(`${prefix}before`).catch((error: unknown) => error);
      expect(NereusError.hasCode(refused, ErrorCode.METADATA_UNAVAILABLE)).toBe(true);
      expect((refused as NereusError).message).toContain("not authenticated");
      expect((refused as NereusError).retryable).toBe(false);
    } finally {
      await root.user(auth.username).setPassword(auth.password);
      await watch.close();
      await store.close();
      await root.delete().prefix(prefix);
    }
  });
});

async function put(store: MetadataStore, key: string): Promise<void> {
  const result = await store.txn({
    compares: [{ key, modRevision: 0 }],
    writes: [{ type: "put", key, value: new TextEncoder().encode("v") }],
  });
  expect(result.succeeded).toBe(true);
}
