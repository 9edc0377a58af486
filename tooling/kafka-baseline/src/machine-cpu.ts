// How busy the whole machine was over a phase, from the aggregate `cpu` line of Linux's /proc/stat. On the two-core
// benchmark machine the client, the broker and the kernel share the CPUs: a phase during which the machine stayed
// partly idle was bound by latency (someone waited for a disk or a wake-up), one that kept every CPU busy was bound by
// CPU, and the two call for different changes. Linux only; elsewhere the reading is undefined, never a guess.
import fs from "node:fs";

/** Cumulative clock ticks of every CPU since boot: busy (not idle, not waiting for I/O) and total. */
export interface MachineCpuTicks {
  readonly busy: number;
  readonly total: number;
}

/**
 * Parses the aggregate `cpu` line of /proc/stat (user nice system idle iowait irq softirq steal ...). Idle and iowait
 * count as not busy; guest time is already inside user and nice, so it is not added again. Undefined when the text
 * has no such line or a field is not a number.
 */
export function machineCpuTicksFromStat(text: string): MachineCpuTicks | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith("cpu "));
  if (line === undefined) return undefined;
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (fields.length < 8 || fields.some((value) => !Number.isSafeInteger(value) || value < 0)) return undefined;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/** The machine's CPU ticks now, or undefined when /proc/stat cannot be read. */
export function machineCpuTicks(): MachineCpuTicks | undefined {
  try {
    return machineCpuTicksFromStat(fs.readFileSync("/proc/stat", "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The fraction of all CPUs' time that was busy between two readings (0..1), or NaN when either is missing or no
 * time passed between them.
 */
export function busyFraction(before: MachineCpuTicks | undefined, after: MachineCpuTicks | undefined): number {
  if (before === undefined || after === undefined) return Number.NaN;
  const total = after.total - before.total;
  if (total <= 0) return Number.NaN;
  return Math.min(1, Math.max(0, (after.busy - before.busy) / total));
}
