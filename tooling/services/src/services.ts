// Starting a set of services: prerequisites first (Debian packages, java, Maven artifacts), then etcd,
// s3proxy and ZooKeeper in parallel, the bookies as soon as ZooKeeper is ready. A failure stops everything
// already started and keeps the run directory (its logs) for inspection.
import fs from "node:fs";
import type { ServicesDescription, StartTimings } from "./description.js";
import { bookkeeperPrerequisites, startBookKeeper, type BookKeeperOptions } from "./bookkeeper.js";
import { asServiceStartError, ServiceStartError } from "./errors.js";
import { etcdPrerequisites, startEtcd, type EtcdOptions } from "./etcd.js";
import { commandLineContains, releaseGuard, stopProcess, type ProcessRecord } from "./managed-process.js";
import { newRunId, runDirFor } from "./paths.js";
import { allocatePorts, assertPortFree } from "./ports.js";
import {
  debianFile,
  ensureRequirements,
  executable,
  installAllowed,
  isRoot,
  type PrerequisiteContext,
} from "./prerequisites.js";
import { RunningServices } from "./running-services.js";
import type { JvmProfile, RunContext } from "./run-context.js";
import { s3Prerequisites, startS3, type S3Options } from "./s3proxy.js";
import { writeStateFile } from "./state-file.js";
import { startWatchdog } from "./watchdog.js";
import { startZooKeeper, zookeeperPrerequisites, type ZooKeeperOptions } from "./zookeeper.js";

/** The services the harness can start. */
export type ServiceName = "etcd" | "s3" | "zookeeper" | "bookkeeper";

/** Every service, in start order. */
export const ALL_SERVICES: readonly ServiceName[] = ["etcd", "s3", "zookeeper", "bookkeeper"];

/** What to start (omit all four to start all; `true` means defaults) and how. */
export interface StartServicesOptions {
  readonly etcd?: EtcdOptions | boolean;
  readonly s3?: S3Options | boolean;
  readonly zookeeper?: ZooKeeperOptions | boolean;
  /** Bookies; implies ZooKeeper. */
  readonly bookkeeper?: BookKeeperOptions | boolean;
  /** Write the description here (and keep it updated on bookie restarts). */
  readonly stateFile?: string;
  /** Install missing Debian packages with apt-get when root (default true; `NEREUS_SERVICES_NO_INSTALL=1` disables). */
  readonly autoInstall?: boolean;
  /** Also make sure the Debian tools other tests use (kcat, etcdctl, python3-confluent-kafka) are installed, best effort (default true). */
  readonly extraTools?: boolean;
  /** SIGKILL the services if this Node process exits without stopping them (default true; the CLI hands them over). */
  readonly stopOnExit?: boolean;
  /** JVM flag profile (default `NEREUS_SERVICES_JVM` or "fast-start"). */
  readonly jvm?: JvmProfile;
  /** Environment for PATH lookups and children (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
  /** Progress lines (default: none). */
  readonly log?: (line: string) => void;
}

type Enabled<T> = T | undefined;

function optionsOf<T extends object>(value: T | boolean | undefined): Enabled<T> {
  if (value === undefined || value === false) return undefined;
  return value === true ? ({} as T) : value;
}

/** Which services `options` asks for, with their options (bookkeeper pulls in zookeeper). */
export function selectServices(options: StartServicesOptions): {
  etcd: Enabled<EtcdOptions>;
  s3: Enabled<S3Options>;
  zookeeper: Enabled<ZooKeeperOptions>;
  bookkeeper: Enabled<BookKeeperOptions>;
} {
  const none =
    options.etcd === undefined &&
    options.s3 === undefined &&
    options.zookeeper === undefined &&
    options.bookkeeper === undefined;
  const etcd = none ? {} : optionsOf(options.etcd);
  const s3 = none ? {} : optionsOf(options.s3);
  const bookkeeper = none ? {} : optionsOf(options.bookkeeper);
  let zookeeper = none ? {} : optionsOf(options.zookeeper);
  if (bookkeeper !== undefined && zookeeper === undefined) zookeeper = {};
  return { etcd, s3, zookeeper, bookkeeper };
}

async function extraTools(ctx: PrerequisiteContext): Promise<void> {
  const tools = [
    executable("kcat", "kcat"),
    executable("etcdctl", "etcd-client"),
    debianFile("/usr/lib/python3/dist-packages/confluent_kafka/__init__.py", "python3-confluent-kafka"),
  ];
  const missing = tools.filter((t) => t.locate(ctx.env) === undefined);
  if (missing.length === 0) return;
  if (!ctx.autoInstall || !isRoot()) {
    ctx.log(`note: ${missing.map((t) => t.what).join(", ")} missing (not installed: not root or auto-install off)`);
    return;
  }
  try {
    await ensureRequirements("harness", missing, ctx);
  } catch (error) {
    ctx.log(`note: ${asServiceStartError("harness", error).message}`);
  }
}

async function timed<T>(timings: Record<string, number>, key: string, since: number, body: Promise<T>): Promise<T> {
  const value = await body;
  timings[key] = Date.now() - since;
  return value;
}

/**
 * Starts the requested services on 127.0.0.1 (free ports unless given, a fresh temp dir per run) and resolves
 * when all are ready. Throws a {@link ServiceStartError} (one-line message, log tail attached) if any cannot be
 * started; everything already started is stopped then.
 */
export async function startServices(options: StartServicesOptions = {}): Promise<RunningServices> {
  const t0 = Date.now();
  const env = options.env ?? process.env;
  const selected = selectServices(options);
  const log = options.log ?? (() => undefined);
  const runId = newRunId();
  const runDir = runDirFor(runId);
  const jvmEnv = env.NEREUS_SERVICES_JVM;
  const ctx: RunContext = {
    env,
    autoInstall: installAllowed(options.autoInstall, env),
    log,
    runId,
    runDir,
    jvm: options.jvm ?? (jvmEnv === "throughput" ? "throughput" : "fast-start"),
    guard: true,
    started: [],
  };
  const timings: Record<string, number> = {};

  // Prerequisites, sequentially (apt-get and mvn must not race each other); ports checked before any spawn.
  const etcdBinary = selected.etcd === undefined ? undefined : await etcdPrerequisites(ctx);
  const zkPrereq = selected.zookeeper === undefined ? undefined : await zookeeperPrerequisites(ctx);
  const [s3Prereq, bkPrereq] = await Promise.all([
    selected.s3 === undefined ? undefined : s3Prerequisites(ctx),
    selected.bookkeeper === undefined ? undefined : bookkeeperPrerequisites(ctx),
  ]);
  if (options.extraTools ?? true) await extraTools(ctx);

  const fixed: Array<[string, string, number | undefined]> = [
    ["etcd", "client port", selected.etcd?.port],
    ["etcd", "peer port", selected.etcd?.peerPort],
    ["s3", "port", selected.s3?.port],
    ["zookeeper", "port", selected.zookeeper?.port],
    ...(selected.bookkeeper?.ports ?? []).map((p, i): [string, string, number] => [
      "bookkeeper",
      `bookie ${i} port`,
      p,
    ]),
  ];
  for (const [service, what, port] of fixed) if (port !== undefined) await assertPortFree(service, port, what);
  const bookieCount =
    selected.bookkeeper === undefined ? 0 : (selected.bookkeeper.ports?.length ?? selected.bookkeeper.bookies ?? 3);
  const free = await allocatePorts(5 + bookieCount);
  const next = (given: number | undefined): number => given ?? free.shift() ?? 0;
  const etcdPorts =
    selected.etcd === undefined ? undefined : { client: next(selected.etcd.port), peer: next(selected.etcd.peerPort) };
  const s3Port = selected.s3 === undefined ? undefined : next(selected.s3.port);
  const zkPort = selected.zookeeper === undefined ? undefined : next(selected.zookeeper.port);
  const bookiePorts = Array.from({ length: bookieCount }, (_, i) => next(selected.bookkeeper?.ports?.[i]));
  timings.prerequisites = Date.now() - t0;

  fs.mkdirSync(runDir, { recursive: true });
  log(`run ${runId} in ${runDir}`);
  const watchdogPid = options.stopOnExit === false ? undefined : startWatchdog(runDir);
  const t1 = Date.now();
  const records: ProcessRecord[] = [];
  const etcdP =
    etcdBinary === undefined || etcdPorts === undefined || selected.etcd === undefined
      ? undefined
      : timed(timings, "etcd", t1, startEtcd(ctx, etcdBinary, etcdPorts, selected.etcd));
  const s3P =
    s3Prereq === undefined || s3Port === undefined || selected.s3 === undefined
      ? undefined
      : timed(timings, "s3", t1, startS3(ctx, s3Prereq, s3Port, selected.s3));
  const zkP =
    zkPrereq === undefined || zkPort === undefined || selected.zookeeper === undefined
      ? undefined
      : timed(timings, "zookeeper", t1, startZooKeeper(ctx, zkPrereq, zkPort, selected.zookeeper));
  const bkP =
    zkP === undefined || bkPrereq === undefined || selected.bookkeeper === undefined
      ? undefined
      : zkP.then((zk) => {
          const t2 = Date.now();
          return timed(
            timings,
            "bookkeeper",
            t2,
            startBookKeeper(ctx, bkPrereq, zk.description, bookiePorts, selected.bookkeeper ?? {}),
          );
        });
  const settled = await Promise.allSettled([etcdP, s3P, zkP, bkP]);
  const failure = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failure !== undefined) {
    await Promise.all(ctx.started.map((p) => stopProcess(p.record, { graceMs: 3_000 })));
    if (watchdogPid !== undefined && commandLineContains(watchdogPid, runDir)) process.kill(watchdogPid, "SIGTERM");
    const error = asServiceStartError("harness", failure.reason);
    log(`start failed; logs kept in ${runDir}/logs`);
    throw error;
  }
  const [etcd, s3, zk, bk] = await Promise.all([etcdP, s3P, zkP, bkP]);
  for (const r of [etcd?.process, s3?.process, zk?.process, ...(bk?.processes ?? [])])
    if (r !== undefined) records.push(r);
  timings.total = Date.now() - t0;

  const description: ServicesDescription = {
    version: 1,
    runId,
    runDir,
    startedAt: new Date(t0).toISOString(),
    ...(etcd === undefined ? {} : { etcd: etcd.description }),
    ...(s3 === undefined ? {} : { s3: s3.description }),
    ...(zk === undefined ? {} : { zookeeper: zk.description }),
    ...(bk === undefined ? {} : { bookkeeper: bk.description }),
    processes: records,
    timings: timings as StartTimings,
    ...(watchdogPid === undefined ? {} : { watchdogPid }),
  };
  if (options.stateFile !== undefined) writeStateFile(options.stateFile, description);
  if (options.stopOnExit === false) for (const r of records) releaseGuard(r.pid);
  log(`ready in ${timings.total} ms (${formatTimings(timings)})`);
  return new RunningServices(description, { stateFile: options.stateFile, guard: options.stopOnExit !== false });
}

/** "prerequisites 12 ms, etcd 640 ms, ..." */
export function formatTimings(timings: StartTimings): string {
  return Object.entries(timings)
    .filter(([key]) => key !== "total")
    .map(([key, ms]) => `${key} ${String(ms)} ms`)
    .join(", ");
}

/** Throws unless `name` is a service name. */
export function parseServiceName(name: string): ServiceName {
  if ((ALL_SERVICES as readonly string[]).includes(name)) return name as ServiceName;
  throw new ServiceStartError("harness", `unknown service "${name}" (known: ${ALL_SERVICES.join(", ")})`);
}
