// etcd 3.4 (Debian etcd-server) as a single-member cluster on 127.0.0.1 with a fresh data dir; ready when
// GET /health answers {"health":"true"}.
import type { EtcdDescription } from "./description.js";
import type { ProcessRecord } from "./managed-process.js";
import { LOOPBACK } from "./ports.js";
import { ensureRequirements, executable, type PrerequisiteContext } from "./prerequisites.js";
import { logFile, runSubdir, spawnInRun, waitForReady, type RunContext } from "./run-context.js";

/** Options for etcd. */
export interface EtcdOptions {
  /** Client port (default: a free port). A taken port is a start error. */
  readonly port?: number;
  /** Peer port (default: a free port). */
  readonly peerPort?: number;
  /** Readiness deadline (default 30 s). */
  readonly readyTimeoutMs?: number;
}

/** Checks (and installs when allowed) what etcd needs; returns the etcd executable. */
export async function etcdPrerequisites(ctx: PrerequisiteContext): Promise<string> {
  const [etcd] = await ensureRequirements("etcd", [executable("etcd", "etcd-server")], ctx);
  if (etcd === undefined) throw new Error("unreachable: etcd resolved to nothing");
  return etcd;
}

async function healthy(endpoint: string): Promise<boolean> {
  const response = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1000) });
  if (!response.ok) return false;
  const body = (await response.json()) as { health?: unknown };
  return body.health === "true" || body.health === true;
}

/** Starts etcd on the given ports and waits until it is healthy. */
export async function startEtcd(
  ctx: RunContext,
  etcdBinary: string,
  ports: { client: number; peer: number },
  options: EtcdOptions,
): Promise<{ description: EtcdDescription; process: ProcessRecord }> {
  const dataDir = runSubdir(ctx, "etcd");
  const client = `http://${LOOPBACK}:${ports.client}`;
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
    ],
    cwd: dataDir,
    logFile: logFile(ctx, "etcd"),
    ports: [ports.client, ports.peer],
  });
  await waitForReady(
    "etcd",
    proc,
    `etcd health on ${client}`,
    () => healthy(client),
    options.readyTimeoutMs ?? 30_000,
    50,
  );
  return { description: { endpoint: client }, process: proc.record };
}
