// How much memory the guest handed back to its hypervisor over a phase. The benchmark machine is a VM with free page
// reporting (virtio-balloon): freed guest memory is reported to the host in large blocks, which drops it, and the
// guest's next touch of such a page faults to the host (nested virtualization here: about 15 us per 4 KiB page). A
// broker writing into fresh page cache then copies at about 200 MB/s instead of 2 GB/s, with the CPU busy for the
// whole copy (thirty-third session: `copy_folio_from_iter_atomic` was 24 % of Apache Kafka's CPU and 45 % of the
// Nereus segment writer's). Memory freed recently, up to the reporting threshold, is still backed and fast: so how
// fast a phase runs depends on how much freed memory earlier phases left behind, and the amount reported during a
// phase (about the amount the guest then has to fault back in) tells rounds measured on cold memory from rounds on
// warm memory. The counter comes from the guest kernel's page_reporting module parameters; on a kernel without it
// the reading is undefined, never a guess.
import fs from "node:fs";

/** Where the guest kernel counts the memory it reported (KiB since boot). */
export const REPORTED_KIB_PATH = "/sys/module/page_reporting/parameters/reported_kib";

/** Parses the counter's text: one non-negative integer (KiB), optionally newline-terminated; undefined otherwise. */
export function reportedKibFromText(text: string): number | undefined {
  const match = /^(\d+)\n?$/.exec(text);
  if (match === null) return undefined;
  const kib = Number(match[1]);
  return Number.isSafeInteger(kib) ? kib : undefined;
}

/** KiB of memory the guest reported to the host since boot, or undefined when the kernel does not count it. */
export function reportedKib(path: string = REPORTED_KIB_PATH): number | undefined {
  try {
    return reportedKibFromText(fs.readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

/**
 * MiB reported between two readings, or undefined when either is missing or the counter went backwards (a reset:
 * nothing can be said about the phase).
 */
export function reportedMibBetween(before: number | undefined, after: number | undefined): number | undefined {
  if (before === undefined || after === undefined || after < before) return undefined;
  return (after - before) / 1024;
}
