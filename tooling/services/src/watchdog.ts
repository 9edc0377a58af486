// Orphan protection for runs started by the library: a tiny detached Node process watches the PID of the
// process that started the run; if that owner dies without stopping the services (a test worker killed by a
// signal or a timeout), it stops every PID listed in <runDir>/pids (SIGTERM, then SIGKILL), checking each
// command line for the run directory first. It exits by itself once the run directory is gone.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const PIDS_FILE = "pids";

// Plain JavaScript run with `node -e`; argv: [node, ownerPid, runDir].
const SCRIPT = String.raw`
const fs = require("fs");
const owner = Number(process.argv[1]);
const runDir = process.argv[2];
const pidsFile = runDir + "/pids";
function alive(pid) {
  try {
    const s = fs.readFileSync("/proc/" + pid + "/stat", "utf8");
    const state = s.slice(s.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch { return false; }
}
function ours(pid) {
  try { return fs.readFileSync("/proc/" + pid + "/cmdline", "utf8").includes(runDir); } catch { return false; }
}
function pids() {
  try { return fs.readFileSync(pidsFile, "utf8").split("\n").map(Number).filter((n) => n > 0); } catch { return null; }
}
function signal(list, sig) {
  for (const pid of list) if (ours(pid)) { try { process.kill(-pid, sig); } catch {} }
}
const timer = setInterval(() => {
  const list = pids();
  if (list === null) process.exit(0);
  if (alive(owner)) return;
  clearInterval(timer);
  signal(list, "SIGTERM");
  let waited = 0;
  const finish = setInterval(() => {
    waited += 250;
    const left = list.filter((pid) => alive(pid) && ours(pid));
    if (left.length === 0 || waited >= 8000) {
      signal(left, "SIGKILL");
      clearInterval(finish);
      process.exit(0);
    }
  }, 250);
}, 1000);
`;

/** Adds `pid` to the run's PID list (read by the watchdog). */
export function recordRunPid(runDir: string, pid: number): void {
  try {
    fs.appendFileSync(path.join(runDir, PIDS_FILE), `${pid}\n`);
  } catch {
    // The run directory is gone (the run was stopped): nothing to watch.
  }
}

/** Starts the watchdog for `runDir`, owned by this process; returns its PID. */
export function startWatchdog(runDir: string): number | undefined {
  fs.appendFileSync(path.join(runDir, PIDS_FILE), "");
  const child = spawn(process.execPath, ["-e", SCRIPT, String(process.pid), runDir], {
    detached: true,
    stdio: "ignore",
    cwd: runDir,
  });
  child.on("error", () => undefined);
  child.unref();
  return child.pid;
}
