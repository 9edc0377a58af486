// CRC32C (Castagnoli) over bytes. On x86-64 CPUs with SSE4.2 it runs in this package's own addon
// (native/crc32c.cc: three interleaved hardware checksums, 2-4x faster than one), built by the install script;
// elsewhere, or when the addon was not built, in the portable @node-rs/crc32. Both give identical results (tested
// against each other). Pure; no buffer retention.
import { crc32c as portableCrc32c } from "@node-rs/crc32";
import { loadPackageAddon } from "../native/load-package-addon.js";

/** The addon's exports: the function, or (on a CPU without SSE4.2) why there is none. */
interface Crc32cAddon {
  readonly crc32c?: (bytes: ArrayBufferView, initial: number) => number;
  readonly unsupported?: string;
}

function isCrc32cAddon(exports: unknown): exports is Crc32cAddon {
  if (typeof exports !== "object" || exports === null) return false;
  const { crc32c: hardware, unsupported } = exports as { crc32c?: unknown; unsupported?: unknown };
  return typeof hardware === "function" || typeof unsupported === "string";
}

const loaded = loadPackageAddon("@nereus/core", import.meta.url, "crc32c", isCrc32cAddon);
const hardware = loaded.addon?.crc32c;

/** Which implementation `crc32c` uses in this process: `sse4.2`, or `portable` with the reason. */
export const CRC32C_IMPLEMENTATION: string =
  hardware !== undefined ? "sse4.2" : `portable (${loaded.reason ?? loaded.addon?.unsupported ?? "no reason given"})`;

/**
 * CRC32C of `bytes` as an unsigned 32-bit number. Pass a previous result as `initial` to continue a running
 * checksum: `crc32c(b, crc32c(a)) === crc32c(concat(a, b))`.
 */
export const crc32c: (bytes: Uint8Array, initial?: number) => number =
  hardware !== undefined ? (bytes, initial = 0) => hardware(bytes, initial) : (bytes, initial = 0) => portableCrc32c(bytes, initial) >>> 0;

/** The portable implementation, always (for tests that compare the two). */
export function portableCrc32cOf(bytes: Uint8Array, initial = 0): number {
  return portableCrc32c(bytes, initial) >>> 0;
}
