// The context one harness run shares between its services: run id and directory, prerequisite policy, JVM
// profile, and the list of every process spawned (so a failed start can stop all of them).
import fs from "node:fs";
import path from "node:path";
import { ServiceStartError } from "./errors.js";
import { readLogTail, spawnProcess, type ProcessSpec, type StartedProcess } from "./managed-process.js";
import type { PrerequisiteContext } from "./prerequisites.js";
import { waitUntil, WaitError } from "./wait.js";
import { recordRunPid } from "./watchdog.js";

/**
 * JVM flag profile: `fast-start` (default; C1 only, serial GC: quickest start on 2 cores) or `throughput`
 * (JVM defaults, for benchmarks). Chosen by the `jvm` option or `NEREUS_SERVICES_JVM`.
 */
export type JvmProfile = "fast-start" | "throughput";

/** State shared by the services of one run. */
export interface RunContext extends PrerequisiteContext {
  readonly runId: string;
  /** os.tmpdir()/nereus-services-<runId>; every data dir, config and log of the run lives here. */
  readonly runDir: string;
  readonly jvm: JvmProfile;
  /** SIGKILL spawned processes if this Node process exits without stopping them. */
  readonly guard: boolean;
  /** Every process spawned in this run, in order. */
  readonly started: StartedProcess[];
}

/** Creates (and makes) a directory inside the run directory. */
export function runSubdir(ctx: RunContext, ...parts: string[]): string {
  const dir = path.join(ctx.runDir, ...parts);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Path of a log file in `<runDir>/logs/`. */
export function logFile(ctx: RunContext, name: string): string {
  return path.join(runSubdir(ctx, "logs"), `${name}.log`);
}

/** Spawns a process of this run and records it in `ctx.started`. */
export function spawnInRun(ctx: RunContext, spec: Omit<ProcessSpec, "marker">): StartedProcess {
  const started = spawnProcess({ ...spec, marker: ctx.runDir }, { guard: ctx.guard, baseEnv: ctx.env });
  ctx.started.push(started);
  recordRunPid(ctx.runDir, started.record.pid);
  return started;
}

/**
 * Waits (bounded) until `check` holds for a started process. Fails fast with the log tail when the process
 * exits, and with a timeout otherwise; both as a one-line {@link ServiceStartError} for `service`.
 */
export async function waitForReady(
  service: string,
  proc: StartedProcess,
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<void> {
  try {
    await waitUntil(what, check, {
      timeoutMs,
      intervalMs,
      abortReason: () => {
        const reason = proc.exitReason();
        return reason === undefined
          ? undefined
          : `${proc.record.name} (pid ${proc.record.pid}) ${reason} before it was ready`;
      },
    });
  } catch (error) {
    if (!(error instanceof WaitError)) throw error;
    // Give a dying process a moment to flush its last log lines.
    await new Promise((r) => setTimeout(r, 200));
    throw new ServiceStartError(service, `${error.message} (log: ${proc.record.logFile})`, {
      logFile: proc.record.logFile,
      logTail: readLogTail(proc.record.logFile),
    });
  }
}

/**
 * Common JVM flags for a service JVM of this run with the given max heap. The JVM's temp dir is `<runDir>/tmp`, so
 * whatever a service writes there (native libraries some Java libraries extract, one directory per JVM) goes with
 * the run directory instead of piling up in the OS temp dir.
 */
export function jvmFlags(ctx: RunContext, heapMb: number): string[] {
  const flags = [
    `-Xmx${heapMb}m`,
    "-XX:-UsePerfData",
    "-Djava.net.preferIPv4Stack=true",
    `-Djava.io.tmpdir=${runSubdir(ctx, "tmp")}`,
  ];
  if (ctx.jvm === "fast-start") flags.push("-Xms32m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xss512k");
  return flags;
}
