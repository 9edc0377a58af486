// Validation of the Kafka broker's options (create-kafka-broker.ts): every bad value is an INVALID_ARGUMENT
// NereusError naming the option. The checks answer the value they accept, so the broker reads each option once.
import { CANONICAL_STORAGE_PROFILES, ErrorCode, NereusError, type StorageProfileName } from "@nereus/core";
import { canonicalizeProfile } from "@nereus/core/internal";
import type { BrokerIdentity } from "./kafka-api-handler.js";
import type { BrokerSettings, LogDirectory } from "./broker-services.js";

/** The options that make the broker's identity (see KafkaBrokerOptions). */
export interface IdentityOptions {
  readonly cluster: string;
  readonly nodeId: number;
  readonly advertisedHost: string;
  readonly advertisedPort: number;
  readonly clusterId?: string;
}

/** The options behind the handlers' settings (see KafkaBrokerOptions). */
export interface SettingOptions {
  readonly defaultPartitions?: number;
  readonly autoCreateTopics?: boolean;
  readonly maxPartitionsPerTopic?: number;
  readonly maxFetchWaitMs?: number;
  readonly maxTopicsPerMetadataRequest?: number;
  readonly maxTopicsPerCreateTopicsRequest?: number;
}

/** The error every rejected option raises. */
export function invalid(message: string): NereusError {
  return new NereusError(ErrorCode.INVALID_ARGUMENT, message, { retryable: false });
}

/** `value` when it is an integer in [1, max]. */
export function positiveInteger(name: string, value: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isSafeInteger(value) || value < 1 || value > max)
    throw invalid(`${name} must be an integer in [1, ${String(max)}], got ${String(value)}`);
  return value;
}

/** `value` when it is a finite number > 0. */
export function positiveNumber(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw invalid(`${name} must be a finite number > 0, got ${String(value)}`);
  return value;
}

/** `value` when it is an integer >= 0. */
export function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0) throw invalid(`${name} must be an integer >= 0, got ${String(value)}`);
  return value;
}

/** `logDir` when it has a non-empty path and, if any, a capacity function. */
export function checkLogDir(logDir: LogDirectory): LogDirectory {
  if (typeof logDir.path !== "string" || logDir.path.length === 0)
    throw invalid("logDir.path must be a non-empty string");
  if (logDir.capacity !== undefined && typeof logDir.capacity !== "function")
    throw invalid("logDir.capacity must be a function");
  return logDir;
}

/** The broker's identity (node id, advertised address, cluster id) after checking the node id and the address. */
export function checkIdentity(options: IdentityOptions): BrokerIdentity {
  if (!Number.isInteger(options.nodeId) || options.nodeId < 0 || options.nodeId > 0x7fff_ffff)
    throw invalid(`nodeId must be an int32 >= 0, got ${String(options.nodeId)}`);
  if (typeof options.advertisedHost !== "string" || options.advertisedHost.length === 0)
    throw invalid("advertisedHost must be a non-empty string");
  positiveInteger("advertisedPort", options.advertisedPort, 65_535);
  return {
    nodeId: options.nodeId,
    host: options.advertisedHost,
    port: options.advertisedPort,
    clusterId: options.clusterId ?? options.cluster,
  };
}

/** The canonical default storage profile (the first canonical profile when none is given). */
export function checkDefaultProfile(defaultProfile: StorageProfileName | undefined): BrokerSettings["defaultProfile"] {
  try {
    return canonicalizeProfile(defaultProfile ?? CANONICAL_STORAGE_PROFILES[0]);
  } catch (error) {
    throw invalid(`defaultProfile: ${NereusError.is(error) ? error.message : String(error)}`);
  }
}

/** The handlers' settings, checked in this order, with their defaults. */
export function brokerSettings(
  options: SettingOptions,
  defaultProfile: BrokerSettings["defaultProfile"],
): BrokerSettings {
  return {
    defaultPartitions: positiveInteger("defaultPartitions", options.defaultPartitions ?? 1, 0x7fff_ffff),
    autoCreateTopics: options.autoCreateTopics ?? true,
    defaultProfile,
    maxPartitionsPerTopic: positiveInteger(
      "maxPartitionsPerTopic",
      options.maxPartitionsPerTopic ?? 10_000,
      0x7fff_ffff,
    ),
    maxFetchWaitMs: Math.max(0, options.maxFetchWaitMs ?? 30_000),
    maxTopicsPerMetadataRequest: positiveInteger(
      "maxTopicsPerMetadataRequest",
      options.maxTopicsPerMetadataRequest ?? 10_000,
    ),
    maxTopicsPerCreateTopicsRequest: positiveInteger(
      "maxTopicsPerCreateTopicsRequest",
      options.maxTopicsPerCreateTopicsRequest ?? 1_000,
    ),
  };
}
