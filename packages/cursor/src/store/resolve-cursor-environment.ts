// Turns the options a cursor store is built from into its CursorEnvironment: checks the wiring and every limit
// before any I/O, and fills in defaults. It does no I/O and keeps the stores it is given (never copies them).
import { ErrorCode, METADATA_STORE_SPI_VERSION, NereusError } from "@nereus/core";
import { clusterPrefix } from "@nereus/core/internal";
import { type CursorLimits, type CursorStoreOptions, DEFAULT_CURSOR_LIMITS } from "./cursor-store-options.js";
import type { CursorEnvironment } from "./owner-context.js";

const LIMIT_NAMES = Object.keys(DEFAULT_CURSOR_LIMITS) as readonly (keyof CursorLimits)[];

/**
 * The resolved environment of `options`: limits are `DEFAULT_CURSOR_LIMITS` overridden field by field, the clock
 * defaults to `Date.now`. Throws `INVALID_ARGUMENT` (not retryable) naming the first bad field: a missing store or
 * stream access, a metadata store of another SPI version, an empty or unusable cluster name, an unknown limit name,
 * a limit that is not a positive safe integer, or `minInlineItems > maxInlineItems`.
 */
export function resolveCursorEnvironment(options: CursorStoreOptions): CursorEnvironment {
  if (typeof options !== "object" || options === null) throw invalid("cursor store options must be an object");
  checkStores(options);
  checkCluster(options.cluster);
  const now = options.now ?? Date.now;
  if (typeof now !== "function") throw invalid("now must be a function returning milliseconds");
  return {
    metadata: options.metadata,
    objects: options.objects,
    streams: options.streams,
    cluster: options.cluster,
    limits: resolveLimits(options.limits),
    now,
  };
}

function checkStores(options: CursorStoreOptions): void {
  const { metadata, objects, streams } = options;
  if (typeof metadata?.txn !== "function" || typeof metadata.scan !== "function") {
    throw invalid("metadata must be a MetadataStore");
  }
  if (metadata.spiVersion !== METADATA_STORE_SPI_VERSION) {
    throw invalid(
      `metadata store speaks SPI version ${String(metadata.spiVersion)}, cursors need ${String(METADATA_STORE_SPI_VERSION)}`,
    );
  }
  if (typeof objects?.putIfAbsent !== "function" || typeof objects.get !== "function") {
    throw invalid("objects must be an ObjectStore");
  }
  if (typeof streams?.getHead !== "function" || typeof streams.trim !== "function") {
    throw invalid("streams must provide getHead and trim (a StreamStore does)");
  }
}

function checkCluster(cluster: string): void {
  if (typeof cluster !== "string" || cluster.length === 0) throw invalid("cluster must be a non-empty string");
  try {
    clusterPrefix(cluster);
  } catch (cause) {
    throw invalid(`cluster ${JSON.stringify(cluster)} cannot be a key component`, cause);
  }
}

function resolveLimits(overrides: Partial<CursorLimits> | undefined): CursorLimits {
  if (overrides === undefined) return DEFAULT_CURSOR_LIMITS;
  if (typeof overrides !== "object" || overrides === null) throw invalid("limits must be an object");
  for (const name of Object.keys(overrides)) {
    if (!(LIMIT_NAMES as readonly string[]).includes(name)) throw invalid(`unknown cursor limit ${name}`);
  }
  const limits = { ...DEFAULT_CURSOR_LIMITS };
  for (const name of LIMIT_NAMES) {
    const value = overrides[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw invalid(`limits.${name} must be a positive safe integer, got ${String(value)}`);
    }
    limits[name] = value;
  }
  if (limits.minInlineItems > limits.maxInlineItems) {
    throw invalid(
      `limits.minInlineItems (${String(limits.minInlineItems)}) exceeds limits.maxInlineItems (${String(limits.maxInlineItems)})`,
    );
  }
  return limits;
}

function invalid(message: string, cause?: unknown): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false, cause });
}
