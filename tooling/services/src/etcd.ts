// etcd 3.4 (Debian etcd-server) as a single-member cluster on 127.0.0.1 with a fresh data dir; ready when
// GET /health answers {"health":"true"}. Optionally secured (etcd-security.ts): TLS with certificates generated at
// start (mutual TLS unless turned off) and user/password authentication.
import path from "node:path";
import type { EtcdDescription, EtcdTlsDescription } from "./description.js";
import { enableEtcdAuth, etcdHealthy, type EtcdTlsOptions } from "./etcd-security.js";
import type { ProcessRecord } from "./managed-process.js";
import { LOOPBACK } from "./ports.js";
import { ensureRequirements, executable, type PrerequisiteContext } from "./prerequisites.js";
import { logFile, runSubdir, spawnInRun, waitForReady, type RunContext } from "./run-context.js";
import { ServiceStartError } from "./errors.js";
import { generateTestCertificates } from "./test-certificates.js";

/** Options for etcd. */
export interface EtcdOptions {
  /** Client port (default: a free port). A taken port is a start error. */
  readonly port?: number;
  /** Peer port (default: a free port). */
  readonly peerPort?: number;
  /** Readiness deadline (default 30 s). */
  readonly readyTimeoutMs?: number;
  /** Serve the client URL over TLS (https) with certificates generated at start (default off). */
  readonly tls?: boolean | EtcdTlsOptions;
  /** Enable user/password authentication: a root user and the broker user "nereus" (default off). */
  readonly auth?: boolean;
}

/** Checks (and installs when allowed) what etcd needs; returns the etcd executable. */
export async function etcdPrerequisites(ctx: PrerequisiteContext): Promise<string> {
  const [etcd] = await ensureRequirements("etcd", [executable("etcd", "etcd-server")], ctx);
  if (etcd === undefined) throw new Error("unreachable: etcd resolved to nothing");
  return etcd;
}

async function tlsFor(dataDir: string, options: EtcdOptions): Promise<EtcdTlsDescription | undefined> {
  if (options.tls === undefined || options.tls === false) return undefined;
  const files = await generateTestCertificates(path.join(dataDir, "tls"));
  return {
    caFile: files.caFile,
    certFile: files.clientCertFile,
    keyFile: files.clientKeyFile,
    serverCertFile: files.serverCertFile,
    serverKeyFile: files.serverKeyFile,
    clientCertAuth: options.tls === true ? true : (options.tls.clientCertAuth ?? true),
  };
}

function tlsFlags(tls: EtcdTlsDescription | undefined): string[] {
  if (tls === undefined) return [];
  return [
    `--cert-file=${tls.serverCertFile}`,
    `--key-file=${tls.serverKeyFile}`,
    `--trusted-ca-file=${tls.caFile}`,
    ...(tls.clientCertAuth ? ["--client-cert-auth"] : []),
  ];
}

/** Starts etcd on the given ports and waits until it is healthy (and, with `auth`, until auth is enabled). */
export async function startEtcd(
  ctx: RunContext,
  etcdBinary: string,
  ports: { client: number; peer: number },
  options: EtcdOptions,
): Promise<{ description: EtcdDescription; process: ProcessRecord }> {
  const dataDir = runSubdir(ctx, "etcd");
  const tls = await tlsFor(dataDir, options);
  const client = `${tls === undefined ? "http" : "https"}://${LOOPBACK}:${ports.client}`;
  const peer = `http://${LOOPBACK}:${ports.peer}`;
  const proc = spawnInRun(ctx, {
    name: "etcd",
    command: etcdBinary,
    args: [
      "--name=nereus",
      `--data-dir=${dataDir}/data`,
      `--listen-client-urls=${client}`,
      `--advertise-client-urls=${client}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=nereus=${peer}`,
      "--initial-cluster-state=new",
      "--logger=zap",
      "--log-outputs=stderr",
      ...tlsFlags(tls),
    ],
    cwd: dataDir,
    logFile: logFile(ctx, "etcd"),
    ports: [ports.client, ports.peer],
  });
  await waitForReady(
    "etcd",
    proc,
    `etcd health on ${client}`,
    () => etcdHealthy(client, tls),
    options.readyTimeoutMs ?? 30_000,
    50,
  );
  let auth: EtcdDescription["auth"];
  if (options.auth === true) {
    try {
      auth = await enableEtcdAuth(client, tls);
    } catch (error) {
      throw new ServiceStartError("etcd", `enabling authentication on ${client} failed: ${String(error)}`, {
        cause: error,
      });
    }
  }
  const description: EtcdDescription = {
    endpoint: client,
    ...(tls === undefined ? {} : { tls }),
    ...(auth === undefined ? {} : { auth }),
  };
  return { description, process: proc.record };
}
