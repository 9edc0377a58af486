// The guest kernel's free page reporting settings, printed with every benchmark run. The benchmark machine is a VM
// whose kernel reports freed memory to the hypervisor (virtio-balloon), which drops it; the guest's next touch of such
// a page faults to the host (nested virtualization here: about 15 us per 4 KiB page). A broker writing into fresh page
// cache then copies about ten times slower, with its CPU busy for the whole copy (a profile then shows
// `copy_folio_from_iter_atomic` high in both brokers' page-cache writers). Memory freed
// recently, up to a threshold the settings name, is still backed and fast, and the settings change while the
// machine runs (their files' times move during the day): two runs compare only under the same settings. Read from
// /sys/module/page_reporting/parameters; on a kernel without the module the reading is undefined, never a guess.
import fs from "node:fs";
import path from "node:path";

/** Where the guest kernel exposes the module's parameters. */
export const PAGE_REPORTING_PARAMETERS = "/sys/module/page_reporting/parameters";

/** A parameter's text as Linux prints it: one token, optionally newline-terminated (undefined for anything else). */
export function parameterValue(text: string): string | undefined {
  const match = /^([^\s]+)\n?$/.exec(text);
  return match === null ? undefined : match[1];
}

/**
 * The module's parameters by name, sorted by name (`reported_kib` and the other running counters included), or
 * undefined when the directory cannot be read. A parameter whose text is not one token is left out.
 */
export function pageReportingParameters(
  directory: string = PAGE_REPORTING_PARAMETERS,
): ReadonlyMap<string, string> | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(directory).sort();
  } catch {
    return undefined;
  }
  const parameters = new Map<string, string>();
  for (const name of names) {
    try {
      const value = parameterValue(fs.readFileSync(path.join(directory, name), "utf8"));
      if (value !== undefined) parameters.set(name, value);
    } catch {
      // Unreadable (write-only or vanished): left out.
    }
  }
  return parameters;
}

/** The settings that decide which freed memory stays backed, for a log line (saying so when the kernel has no such module). */
export function describePageReporting(parameters: ReadonlyMap<string, string> | undefined): string {
  if (parameters === undefined) return "free page reporting: not reported by this kernel";
  const settings = ["page_reporting_order", "max_waiting_mib", "min_free_ms", "free_bitmap_enable"]
    .filter((name) => parameters.has(name))
    .map((name) => `${name}=${parameters.get(name) ?? ""}`);
  return `free page reporting: ${settings.length > 0 ? settings.join(" ") : "no known settings"}`;
}
