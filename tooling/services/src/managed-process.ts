// Child processes of the harness: spawned detached (own process group, so a JVM and anything it forks die
// together), output appended to a log file, stopped by PID only (SIGTERM to the group, SIGKILL after a bound),
// and checked through /proc so zombies and reused PIDs are never mistaken for our services.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { sleep } from "./wait.js";

/** What is needed to (re)start a process; kept in the state file so another process can restart it. */
export interface ProcessSpec {
  /** Short name, e.g. "etcd", "bookie-1". */
  readonly name: string;
  /** Absolute path of the executable. */
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** stdout and stderr are appended here. */
  readonly logFile: string;
  /** Extra environment (added to the inherited one). */
  readonly env?: Readonly<Record<string, string>>;
  /** TCP ports on 127.0.0.1 the process listens on (checked closed after stop). */
  readonly ports: readonly number[];
  /**
   * A string that must occur in `/proc/<pid>/cmdline` before the harness signals the PID (the run directory),
   * so a PID reused by an unrelated process is never killed.
   */
  readonly marker: string;
}

/** A started process as recorded in the state file. */
export interface ProcessRecord extends ProcessSpec {
  /** PID, equal to the process-group id (the child is a group leader). */
  readonly pid: number;
}

/** A process started by this Node process: its record and what is known about its exit. */
export interface StartedProcess {
  readonly record: ProcessRecord;
  /** Undefined while running; otherwise a short description such as "exited with code 1". */
  exitReason(): string | undefined;
}

const exitGuard = new Set<number>();
let exitHookInstalled = false;

/**
 * Makes sure `pid`'s group is SIGKILLed if this Node process exits before it is stopped (a safety net for
 * test runners that crash). The CLI's `start` removes its processes from the guard once they are handed over.
 */
function guardUntilExit(pid: number): void {
  exitGuard.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const pgid of exitGuard) signalGroup(pgid, "SIGKILL");
  });
}

/** Removes `pid` from the exit guard (it was stopped, or handed over to a longer-lived owner). */
export function releaseGuard(pid: number): void {
  exitGuard.delete(pid);
}

/** Spawns `spec` detached with output appended to its log file. Fails fast if the executable is missing. */
export function spawnProcess(
  spec: ProcessSpec,
  options: { readonly guard: boolean; readonly baseEnv?: NodeJS.ProcessEnv },
): StartedProcess {
  const fd = fs.openSync(spec.logFile, "a");
  let exit: string | undefined;
  try {
    fs.writeSync(fd, `\n=== ${new Date().toISOString()} nereus-services: ${spec.command} ${spec.args.join(" ")}\n`);
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      detached: true,
      stdio: ["ignore", fd, fd],
      env: { ...(options.baseEnv ?? process.env), ...spec.env },
    });
    child.on("error", (error) => {
      exit = `could not be started: ${error.message}`;
    });
    child.on("exit", (code, signal) => {
      exit = signal === null ? `exited with code ${String(code)}` : `was killed by ${signal}`;
    });
    child.unref();
    if (child.pid === undefined) throw new Error(`could not spawn ${spec.command}`);
    if (options.guard) guardUntilExit(child.pid);
    const record: ProcessRecord = { ...spec, pid: child.pid };
    return { record, exitReason: () => exit };
  } finally {
    fs.closeSync(fd);
  }
}

interface ProcStat {
  readonly state: string;
  readonly pgrp: number;
}

function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name is in parentheses and may contain spaces: parse after the last ')'.
  const rest = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = rest[0] ?? "?";
  const pgrp = Number(rest[2]);
  return { state, pgrp };
}

/** True while `pid` exists and is not a zombie (zombies are not always reaped in containers). */
export function isProcessAlive(pid: number): boolean {
  if (fs.existsSync("/proc/self/stat")) {
    const stat = readStat(pid);
    return stat !== undefined && stat.state !== "Z" && stat.state !== "X";
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** PIDs of live (non-zombie) members of process group `pgid`, found through /proc (never by name). */
export function liveGroupMembers(pgid: number): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return isProcessAlive(pgid) ? [pgid] : [];
  }
  const members: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const stat = readStat(pid);
    if (stat !== undefined && stat.pgrp === pgid && stat.state !== "Z" && stat.state !== "X") members.push(pid);
  }
  return members;
}

/** True when `/proc/<pid>/cmdline` contains `marker` (the process is ours, not a reused PID). */
export function commandLineContains(pid: number, marker: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").includes(marker);
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already gone.
  }
}

/** The group members of `record` that really belong to this run (checked against the marker). */
function ownedMembers(record: ProcessRecord): number[] {
  return liveGroupMembers(record.pid).filter((pid) => commandLineContains(pid, record.marker));
}

/** Options for {@link stopProcess}. */
export interface StopOptions {
  /** Time allowed after SIGTERM before SIGKILL (default 10 s). */
  readonly graceMs?: number;
  /** Send SIGKILL at once (a crash, as fault tests want). */
  readonly kill?: boolean;
}

/**
 * Stops the process group of `record`: SIGTERM, then SIGKILL after `graceMs`, then waits (bounded) until no
 * member is alive. Only signals when a member's command line carries the run marker. Returns true when
 * nothing of it is left.
 */
export async function stopProcess(record: ProcessRecord, options: StopOptions = {}): Promise<boolean> {
  if (ownedMembers(record).length === 0) {
    releaseGuard(record.pid);
    return true;
  }
  // A dying process loses its command line before it stops running: wait for the signalled pids themselves too.
  const signalled = ownedMembers(record);
  const graceMs = options.kill === true ? 0 : (options.graceMs ?? 10_000);
  if (graceMs > 0) {
    signalGroup(record.pid, "SIGTERM");
    const deadline = Date.now() + graceMs;
    while (Date.now() < deadline && ownedMembers(record).length > 0) await sleep(50);
  }
  if (ownedMembers(record).length > 0) {
    signalGroup(record.pid, "SIGKILL");
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && ownedMembers(record).length > 0) await sleep(25);
  }
  const exitDeadline = Date.now() + 5_000;
  while (Date.now() < exitDeadline && signalled.some((pid) => isProcessAlive(pid))) await sleep(10);
  const gone = ownedMembers(record).length === 0 && !signalled.some((pid) => isProcessAlive(pid));
  if (gone) releaseGuard(record.pid);
  return gone;
}

/** The last `lines` lines of a log file ("" when it cannot be read). */
export function readLogTail(file: string, lines = 25): string {
  let text: string;
  try {
    const size = fs.statSync(file).size;
    const fd = fs.openSync(file, "r");
    try {
      const length = Math.min(size, 64 * 1024);
      const buffer = Buffer.alloc(length);
      fs.readSync(fd, buffer, 0, length, size - length);
      text = buffer.toString("utf8");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return "";
  }
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}
