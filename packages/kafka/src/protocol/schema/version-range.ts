// Version ranges in the notation of Kafka's message specs: "3+" (3 and later), "0-7", "5" (exactly 5), "none".
// Parsed once when a schema is defined; matching is two comparisons.
import { ErrorCode, NereusError } from "@nereus/core";

/** An inclusive range of versions; `max` is `Infinity` for open ranges, and `min > max` for "none". */
export interface VersionRange {
  readonly min: number;
  readonly max: number;
}

/** The empty range ("none"). */
export const NO_VERSIONS: VersionRange = { min: 1, max: 0 };

/** Parses "N+", "N-M", "N" or "none". Anything else is a programming error (INVALID_ARGUMENT). */
export function parseVersionRange(spec: string): VersionRange {
  if (spec === "none") return NO_VERSIONS;
  const match = /^(\d+)(\+|-(\d+))?$/.exec(spec);
  if (!match) throw new NereusError(ErrorCode.INVALID_ARGUMENT, `invalid version range "${spec}"`);
  const min = Number(match[1]);
  if (match[2] === undefined) return { min, max: min };
  if (match[2] === "+") return { min, max: Infinity };
  const max = Number(match[3]);
  if (max < min) throw new NereusError(ErrorCode.INVALID_ARGUMENT, `invalid version range "${spec}"`);
  return { min, max };
}

/** True when `version` lies in `range`. */
export function inVersionRange(range: VersionRange | undefined, version: number): boolean {
  return range !== undefined && version >= range.min && version <= range.max;
}

/** The range back in spec notation. */
export function formatVersionRange(range: VersionRange): string {
  if (range.min > range.max) return "none";
  if (range.max === Infinity) return `${String(range.min)}+`;
  if (range.max === range.min) return String(range.min);
  return `${String(range.min)}-${String(range.max)}`;
}
