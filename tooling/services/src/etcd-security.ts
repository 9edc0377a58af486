// The secured variant of the harness's etcd: TLS on the client URL with certificates generated at start
// (test-certificates.ts), optionally requiring client certificates (mutual TLS), and user/password authentication
// with a root user and a broker user whose role may read and write the Nereus key prefix only. Passwords are
// random per run and written to the state file, which is how tests learn them.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import { Etcd3, type IOptions } from "etcd3";
import type { EtcdAuthDescription, EtcdTlsDescription } from "./description.js";

/** How the secured etcd serves TLS. */
export interface EtcdTlsOptions {
  /** Require a client certificate signed by the run's CA (mutual TLS; default true). */
  readonly clientCertAuth?: boolean;
}

/** The key prefix every Nereus key lives under (`/nereus/clusters/{cluster}/...`). */
const NEREUS_KEY_PREFIX = "/nereus/";
/** The user the broker authenticates as, and the role that holds its permission. */
const ETCD_BROKER_USER = "nereus";

/** A password that names its purpose, so a leak in a log is recognizable. */
function newPassword(label: string): string {
  return `${label}-${randomBytes(12).toString("hex")}`;
}

/** What `https` and etcd3 need to reach a TLS etcd. */
function tlsMaterial(tls: EtcdTlsDescription): { ca: Buffer; cert?: Buffer; key?: Buffer } {
  return {
    ca: fs.readFileSync(tls.caFile),
    ...(tls.clientCertAuth ? { cert: fs.readFileSync(tls.certFile), key: fs.readFileSync(tls.keyFile) } : {}),
  };
}

/** Whether `GET /health` on `endpoint` (http or https) answers healthy. */
export async function etcdHealthy(endpoint: string, tls: EtcdTlsDescription | undefined): Promise<boolean> {
  if (tls === undefined) {
    const response = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1000) });
    if (!response.ok) return false;
    return isHealthy(await response.json());
  }
  const body = await new Promise<string>((resolve, reject) => {
    const request = https.get(`${endpoint}/health`, { ...tlsMaterial(tls), timeout: 1000 }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve(text));
      response.on("error", reject);
    });
    request.on("timeout", () => request.destroy(new Error("health check timed out")));
    request.on("error", reject);
  });
  return isHealthy(JSON.parse(body));
}

function isHealthy(body: unknown): boolean {
  const health = (body as { health?: unknown }).health;
  return health === "true" || health === true;
}

/** etcd3 client options for `endpoint`, with the run's TLS material when it serves TLS. */
export function etcd3ClientOptions(endpoint: string, tls: EtcdTlsDescription | undefined): IOptions {
  if (tls === undefined) return { hosts: endpoint };
  const material = tlsMaterial(tls);
  return {
    hosts: endpoint,
    credentials: {
      rootCertificate: material.ca,
      ...(material.key === undefined ? {} : { privateKey: material.key }),
      ...(material.cert === undefined ? {} : { certChain: material.cert }),
    },
  };
}

/**
 * Creates the root user (role root) and the broker user (role `nereus`: read and write on {@link NEREUS_KEY_PREFIX})
 * with fresh passwords, then enables authentication.
 */
export async function enableEtcdAuth(
  endpoint: string,
  tls: EtcdTlsDescription | undefined,
): Promise<EtcdAuthDescription> {
  const auth: EtcdAuthDescription = {
    rootUser: "root",
    rootPassword: newPassword("etcd-root"),
    username: ETCD_BROKER_USER,
    password: newPassword("etcd-nereus"),
    keyPrefix: NEREUS_KEY_PREFIX,
  };
  const client = new Etcd3(etcd3ClientOptions(endpoint, tls));
  try {
    await client.role("root").create();
    await client.user(auth.rootUser).create(auth.rootPassword);
    await client.user(auth.rootUser).addRole("root");
    await client
      .role(ETCD_BROKER_USER)
      .create()
      .then((role) => role.grant({ permission: "Readwrite", range: client.range({ prefix: auth.keyPrefix }) }));
    await client.user(auth.username).create(auth.password);
    await client.user(auth.username).addRole(ETCD_BROKER_USER);
    await client.auth.authEnable({});
  } finally {
    client.close();
  }
  return auth;
}
