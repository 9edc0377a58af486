// CPU time a process has used so far (user + system, all its threads), from Linux's /proc/<pid>/stat. The benchmark
// reads it around each phase: the broker's CPU per megabyte moved is far steadier than its MB/s on a machine whose
// speed drifts, and on two cores it is what decides throughput. Linux only; elsewhere (or once the process is gone)
// the answer is NaN, never a guess.
import fs from "node:fs";

/** Clock ticks per second of /proc's utime/stime fields (USER_HZ, 100 on every Linux build that matters). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * Seconds of CPU `pid` has used (user + system), or NaN when /proc/<pid>/stat cannot be read or parsed.
 * The process name field may hold spaces and parentheses, so fields are counted after its last ')'.
 */
export function processCpuSeconds(pid: number): number {
  return cpuSecondsOfStatFile(`/proc/${String(pid)}/stat`);
}

/**
 * Seconds of CPU the main thread of `pid` has used (user + system), or NaN when it cannot be read. On Linux the main
 * thread's task id is the process id, so this is /proc/<pid>/task/<pid>/stat. For a Node.js broker that thread is
 * the event loop: its share of the wall time says whether the event loop, not the I/O threads, sets the pace.
 */
export function mainThreadCpuSeconds(pid: number): number {
  return cpuSecondsOfStatFile(`/proc/${String(pid)}/task/${String(pid)}/stat`);
}

/** The user + system seconds of a /proc stat file, or NaN when it cannot be read or parsed. */
function cpuSecondsOfStatFile(file: string): number {
  let stat: string;
  try {
    stat = fs.readFileSync(file, "utf8");
  } catch {
    return Number.NaN;
  }
  return cpuSecondsFromStat(stat);
}

/** The user + system seconds of one /proc/<pid>/stat line (NaN when it is not one). */
export function cpuSecondsFromStat(stat: string): number {
  const close = stat.lastIndexOf(")");
  if (close < 0) return Number.NaN;
  // After ") ": state(3) ppid(4) ... utime(14) stime(15) — indexes 11 and 12 of the remaining fields.
  const fields = stat.slice(close + 2).split(" ");
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user) || !Number.isFinite(system) || fields.length < 13) return Number.NaN;
  return (user + system) / CLOCK_TICKS_PER_SECOND;
}
