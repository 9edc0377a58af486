// The nereus-services command line: start services detached and write the state file, stop them by PID
// from it, show them, fault bookies, and pre-fetch Maven artifacts. Failures print one line, never a stack.
import fs from "node:fs";
import { ServiceStartError, asServiceStartError } from "./errors.js";
import { isProcessAlive } from "./managed-process.js";
import { ARTIFACT_SETS, ensureArtifactSet, type ArtifactSetName } from "./maven-cache.js";
import { installAllowed } from "./prerequisites.js";
import { RunningServices } from "./running-services.js";
import { ALL_SERVICES, formatTimings, parseServiceName, startServices, type ServiceName } from "./services.js";
import { readStateFile } from "./state-file.js";

const USAGE = `usage: nereus-services <command> [options]
  start [--only etcd,s3,zookeeper,bookkeeper] --state <file> [--no-install] [--etcd-tls] [--etcd-auth]
        start the services on 127.0.0.1, write their description (endpoints, pids) to <file>, return when ready;
        --etcd-tls serves etcd over mutual TLS (certificates generated in the run dir), --etcd-auth enables etcd
        authentication (root user and user "nereus"; passwords in <file>)
  stop --state <file> [--keep-run-dir]
        stop every process of the state file by PID, verify no process or port is left, delete <file>
  status --state <file>       print the description and whether each process is alive
  kill-bookie <i> --state <file>      SIGKILL bookie i
  restart-bookie <i> --state <file>   start bookie i again (same port and dirs), wait until registered
  fetch [--only s3proxy,bookkeeper] [--no-install]
        download the Maven artifact sets into .cache/maven-libs (no-op when cached)
env: NEREUS_SERVICES_NO_INSTALL=1 (never apt-get), NEREUS_SERVICES_JVM=throughput, NEREUS_SERVICES_KEEP=1,
     NEREUS_MAVEN_CACHE, NEREUS_MAVEN_REPO_LOCAL, NEREUS_MAVEN_MIRROR`;

interface ParsedArgs {
  readonly command: string | undefined;
  readonly positional: string[];
  readonly flags: Map<string, string | true>;
}

class UsageError extends Error {}

function parseArgs(argv: readonly string[]): ParsedArgs {
  const [command, ...rest] = argv;
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    if (!arg.startsWith("--")) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    if (eq > 0) {
      flags.set(arg.slice(2, eq), arg.slice(eq + 1));
    } else if (["--only", "--state"].includes(arg)) {
      const value = rest[++i];
      if (value === undefined) throw new UsageError(`${arg} needs a value`);
      flags.set(arg.slice(2), value);
    } else {
      flags.set(arg.slice(2), true);
    }
  }
  return { command, positional, flags };
}

function stringFlag(args: ParsedArgs, name: string): string | undefined {
  const value = args.flags.get(name);
  if (value === true) throw new UsageError(`--${name} needs a value`);
  return value;
}

function requireState(args: ParsedArgs): string {
  const file = stringFlag(args, "state");
  if (file === undefined) throw new UsageError(`${args.command ?? ""} needs --state <file>`);
  return file;
}

function progress(line: string): void {
  process.stderr.write(`nereus-services: ${line}\n`);
}

async function start(args: ParsedArgs): Promise<void> {
  const stateFile = requireState(args);
  const only = stringFlag(args, "only");
  const names: ServiceName[] =
    only === undefined
      ? [...ALL_SERVICES]
      : only
          .split(",")
          .filter((s) => s !== "")
          .map(parseServiceName);
  if (fs.existsSync(stateFile)) {
    let alive: number[] = [];
    try {
      alive = readStateFile(stateFile)
        .processes.filter((p) => isProcessAlive(p.pid))
        .map((p) => p.pid);
    } catch {
      // Unreadable: overwritten below.
    }
    if (alive.length > 0) {
      throw new ServiceStartError(
        "harness",
        `state file ${stateFile} describes running services (pids ${alive.join(", ")}); stop them first`,
      );
    }
  }
  const onSignal = (): void => process.exit(130);
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const services = await startServices({
    etcd: names.includes("etcd") && { tls: args.flags.has("etcd-tls"), auth: args.flags.has("etcd-auth") },
    s3: names.includes("s3"),
    zookeeper: names.includes("zookeeper"),
    bookkeeper: names.includes("bookkeeper"),
    stateFile,
    autoInstall: args.flags.has("no-install") ? false : undefined,
    stopOnExit: false,
    log: progress,
  });
  process.off("SIGINT", onSignal);
  process.off("SIGTERM", onSignal);
  const d = services.description;
  const lines = [
    d.etcd &&
      `etcd ${d.etcd.endpoint}${d.etcd.tls === undefined ? "" : ` ca ${d.etcd.tls.caFile}`}${d.etcd.auth === undefined ? "" : ` user ${d.etcd.auth.username}`}`,
    d.s3 && `s3 ${d.s3.endpoint} bucket ${d.s3.bucket}`,
    d.zookeeper && `zookeeper ${d.zookeeper.connectString}`,
    d.bookkeeper && `bookies ${d.bookkeeper.bookies.map((b) => b.id).join(" ")}`,
  ].filter((l): l is string => typeof l === "string");
  process.stdout.write(
    `started ${lines.join("; ")}\nready in ${String(d.timings.total)} ms (${formatTimings(d.timings)}); state: ${stateFile}\n`,
  );
}

async function stop(args: ParsedArgs): Promise<void> {
  const stateFile = requireState(args);
  if (!fs.existsSync(stateFile)) {
    process.stdout.write(`nothing to stop: ${stateFile} does not exist\n`);
    return;
  }
  const services = RunningServices.fromStateFile(stateFile);
  const report = await services.stop({ keepRunDir: args.flags.has("keep-run-dir") });
  fs.rmSync(stateFile, { force: true });
  process.stdout.write(`stopped ${report.stopped} processes; no process or port left\n`);
}

function status(args: ParsedArgs): void {
  const description = readStateFile(requireState(args));
  const alive = Object.fromEntries(
    description.processes.map((p) => [`${p.name} (pid ${p.pid})`, isProcessAlive(p.pid)]),
  );
  process.stdout.write(`${JSON.stringify({ ...description, alive }, null, 2)}\n`);
}

function bookieIndex(args: ParsedArgs): number {
  const index = Number(args.positional[0]);
  if (!Number.isInteger(index) || index < 0) throw new UsageError(`${args.command ?? ""} needs a bookie index`);
  return index;
}

async function fetchArtifacts(args: ParsedArgs): Promise<void> {
  const only = stringFlag(args, "only");
  const aliases: Record<string, ArtifactSetName> = {
    s3: "s3proxy",
    s3proxy: "s3proxy",
    bookkeeper: "bookkeeper",
    kafka: "kafka",
    "pulsar-client": "pulsar-client",
    pulsar: "pulsar",
  };
  const sets =
    only === undefined
      ? [...ARTIFACT_SETS]
      : only
          .split(",")
          .filter((s) => s !== "")
          .map((s) => {
            const set = aliases[s];
            if (set === undefined)
              throw new UsageError(`unknown artifact set "${s}" (known: ${ARTIFACT_SETS.join(", ")})`);
            return set;
          });
  const ctx = {
    env: process.env,
    autoInstall: installAllowed(args.flags.has("no-install") ? false : undefined, process.env),
    log: progress,
  };
  for (const set of sets) {
    const dir = await ensureArtifactSet(set, ctx);
    process.stdout.write(`${set}: ${dir}\n`);
  }
}

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    const args = parseArgs(argv);
    switch (args.command) {
      case "start":
        await start(args);
        return 0;
      case "stop":
        await stop(args);
        return 0;
      case "status":
        status(args);
        return 0;
      case "kill-bookie":
        await RunningServices.fromStateFile(requireState(args)).killBookie(bookieIndex(args));
        return 0;
      case "restart-bookie": {
        const pid = await RunningServices.fromStateFile(requireState(args)).restartBookie(bookieIndex(args));
        process.stdout.write(`bookie ${bookieIndex(args)} restarted, pid ${pid}\n`);
        return 0;
      }
      case "fetch":
        await fetchArtifacts(args);
        return 0;
      case "help":
      case "--help":
      case undefined:
        process.stdout.write(`${USAGE}\n`);
        return args.command === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command "${args.command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`nereus-services: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    const failure = asServiceStartError("harness", error);
    process.stderr.write(`nereus-services: error: ${failure.detail()}\n`);
    return 1;
  }
}
