// The topic configs this broker knows: Kafka's topic-level configs (names, types, defaults) plus
// `nereus.storage.profile`. CreateTopics accepts only these names (Kafka answers INVALID_CONFIG for unknown ones)
// and validates values by type; DescribeConfigs lists them. Enforced by the broker: `max.message.bytes` (Produce),
// `message.timestamp.type` (LogAppendTime stamping), `compression.type` (only `producer`: batches are stored as
// produced, never recompressed), `nereus.storage.profile` (immutable, chosen at creation), `retention.ms` and
// `retention.bytes` (the broker's retention sweep, broker/retention-task.ts) and `cleanup.policy` as far as
// DeleteRecords and retention go (both need "delete"; nothing compacts). Every other config is stored and described
// but not enforced (compaction and replication settings: durability comes from the storage profile).
import { CANONICAL_STORAGE_PROFILES, NereusError } from "@nereus/core";
import { canonicalizeProfile } from "@nereus/core/internal";

/** The storage profile of a topic's partition streams (a canonical profile name or the OBJECT_WAL alias). */
export const STORAGE_PROFILE_CONFIG = "nereus.storage.profile";
/** Kafka's default `max.message.bytes` (1 MiB + the 12-byte log overhead). */
export const DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

/** Kafka's config types as DescribeConfigs v3+ reports them. */
export const ConfigType = {
  UNKNOWN: 0,
  BOOLEAN: 1,
  STRING: 2,
  INT: 3,
  SHORT: 4,
  LONG: 5,
  DOUBLE: 6,
  LIST: 7,
  CLASS: 8,
  PASSWORD: 9,
} as const;
/** Kafka's config sources (DescribeConfigs v1+). */
export const ConfigSource = {
  UNKNOWN: 0,
  DYNAMIC_TOPIC_CONFIG: 1,
  DYNAMIC_BROKER_CONFIG: 2,
  DYNAMIC_DEFAULT_BROKER_CONFIG: 3,
  STATIC_BROKER_CONFIG: 4,
  DEFAULT_CONFIG: 5,
} as const;

type TypeName = "BOOLEAN" | "STRING" | "INT" | "LONG" | "DOUBLE" | "LIST";

/** One known topic config. */
export interface TopicConfigDefinition {
  readonly name: string;
  readonly type: TypeName;
  /** Kafka's default (the broker's default profile for `nereus.storage.profile`). */
  readonly defaultValue: string;
  /** Smallest accepted value of a numeric config. */
  readonly min?: number | bigint;
  /** Largest accepted value of a numeric config. */
  readonly max?: number;
  /** Accepted values of an enumerated STRING/LIST config. */
  readonly validValues?: readonly string[];
  /** True when the broker acts on the value (see the module comment). */
  readonly enforced: boolean;
}

const LONG_MAX = "9223372036854775807";

function config(
  name: string,
  type: TypeName,
  defaultValue: string,
  extra: Partial<TopicConfigDefinition> = {},
): TopicConfigDefinition {
  return { name, type, defaultValue, enforced: false, ...extra };
}

/** Known topic configs, by name, in the order DescribeConfigs lists them. */
export const TOPIC_CONFIGS: ReadonlyMap<string, TopicConfigDefinition> = new Map(
  [
    config("cleanup.policy", "LIST", "delete", { validValues: ["delete", "compact"] }),
    config("compression.type", "STRING", "producer", { validValues: ["producer"], enforced: true }),
    config("delete.retention.ms", "LONG", "86400000", { min: 0n }),
    config("file.delete.delay.ms", "LONG", "60000", { min: 0n }),
    config("flush.messages", "LONG", LONG_MAX, { min: 1n }),
    config("flush.ms", "LONG", LONG_MAX, { min: 0n }),
    config("follower.replication.throttled.replicas", "LIST", ""),
    config("index.interval.bytes", "INT", "4096", { min: 0 }),
    config("leader.replication.throttled.replicas", "LIST", ""),
    config("local.retention.bytes", "LONG", "-2", { min: -2n }),
    config("local.retention.ms", "LONG", "-2", { min: -2n }),
    config("max.compaction.lag.ms", "LONG", LONG_MAX, { min: 1n }),
    config("max.message.bytes", "INT", String(DEFAULT_MAX_MESSAGE_BYTES), { min: 0, enforced: true }),
    config("message.timestamp.after.max.ms", "LONG", LONG_MAX, { min: 0n }),
    config("message.timestamp.before.max.ms", "LONG", LONG_MAX, { min: 0n }),
    config("message.timestamp.difference.max.ms", "LONG", LONG_MAX, { min: 0n }),
    config("message.timestamp.type", "STRING", "CreateTime", {
      validValues: ["CreateTime", "LogAppendTime"],
      enforced: true,
    }),
    config("min.cleanable.dirty.ratio", "DOUBLE", "0.5", { min: 0, max: 1 }),
    config("min.compaction.lag.ms", "LONG", "0", { min: 0n }),
    config("min.insync.replicas", "INT", "1", { min: 1 }),
    config("preallocate", "BOOLEAN", "false"),
    config("remote.storage.enable", "BOOLEAN", "false"),
    config("retention.bytes", "LONG", "-1", { enforced: true }),
    config("retention.ms", "LONG", "604800000", { min: -1n, enforced: true }),
    config("segment.bytes", "INT", "1073741824", { min: 14 }),
    config("segment.index.bytes", "INT", "10485760", { min: 4 }),
    config("segment.jitter.ms", "LONG", "0", { min: 0n }),
    config("segment.ms", "LONG", "604800000", { min: 1n }),
    config("unclean.leader.election.enable", "BOOLEAN", "false"),
    config(STORAGE_PROFILE_CONFIG, "STRING", "OBJECT_WAL_SYNC_OBJECT", {
      validValues: [...CANONICAL_STORAGE_PROFILES, "OBJECT_WAL"],
      enforced: true,
    }),
  ].map((definition) => [definition.name, definition]),
);

const INTEGER = /^-?\d+$/;
const INT32_MIN = -0x8000_0000;
const INT32_MAX = 0x7fff_ffff;

/**
 * Why `value` is not acceptable for topic config `name`, or undefined when it is. Unknown names, null values and
 * values of the wrong type or outside the accepted range are refused with Kafka-like messages.
 */
export function topicConfigProblem(name: string, value: string | null): string | undefined {
  const definition = TOPIC_CONFIGS.get(name);
  if (definition === undefined) return `Unknown topic config name: ${name}`;
  if (value === null) return `Null value not supported for topic configs: ${name}`;
  const invalid = (reason: string): string => `Invalid value ${value} for configuration ${name}: ${reason}`;
  if (name === STORAGE_PROFILE_CONFIG) {
    try {
      canonicalizeProfile(value);
      return undefined;
    } catch (error) {
      return invalid(NereusError.is(error) ? error.message : String(error));
    }
  }
  switch (definition.type) {
    case "BOOLEAN":
      return /^(true|false)$/i.test(value) ? undefined : invalid("Expected value to be either true or false");
    case "INT": {
      if (!INTEGER.test(value)) return invalid("Not a number of type INT");
      const number = Number(value);
      if (number < INT32_MIN || number > INT32_MAX) return invalid("Not a number of type INT");
      if (typeof definition.min === "number" && number < definition.min)
        return invalid(`Value must be at least ${String(definition.min)}`);
      return undefined;
    }
    case "LONG": {
      if (!INTEGER.test(value)) return invalid("Not a number of type LONG");
      const number = BigInt(value);
      if (number < -(2n ** 63n) || number > 2n ** 63n - 1n) return invalid("Not a number of type LONG");
      if (typeof definition.min === "bigint" && number < definition.min)
        return invalid(`Value must be at least ${definition.min.toString()}`);
      return undefined;
    }
    case "DOUBLE": {
      const number = Number(value);
      if (value.trim() === "" || !Number.isFinite(number)) return invalid("Not a number of type DOUBLE");
      if (typeof definition.min === "number" && number < definition.min)
        return invalid(`Value must be at least ${String(definition.min)}`);
      if (definition.max !== undefined && number > definition.max)
        return invalid(`Value must be no more than ${String(definition.max)}`);
      return undefined;
    }
    case "LIST": {
      if (definition.validValues === undefined) return undefined;
      const items = value.split(",").map((item) => item.trim());
      const bad = items.find((item) => !definition.validValues?.includes(item));
      return bad === undefined ? undefined : invalid(`String must be one of: ${definition.validValues.join(", ")}`);
    }
    case "STRING":
      if (definition.validValues !== undefined && !definition.validValues.includes(value)) {
        return invalid(`String must be one of: ${definition.validValues.join(", ")}`);
      }
      return undefined;
  }
}

/** The effective value of `name` for a topic: its explicit config, else the default. */
export function effectiveTopicConfig(configs: Readonly<Record<string, string>>, name: string): string | undefined {
  return Object.hasOwn(configs, name) ? configs[name] : TOPIC_CONFIGS.get(name)?.defaultValue;
}

/** The topic's `max.message.bytes`. */
export function maxMessageBytes(configs: Readonly<Record<string, string>>): number {
  const value = Number(effectiveTopicConfig(configs, "max.message.bytes"));
  return Number.isSafeInteger(value) && value >= 0 ? value : DEFAULT_MAX_MESSAGE_BYTES;
}

/** True when the topic stamps batches with the broker's append time. */
export function usesLogAppendTime(configs: Readonly<Record<string, string>>): boolean {
  return effectiveTopicConfig(configs, "message.timestamp.type") === "LogAppendTime";
}

/** The topic's `retention.ms`, or undefined when its records never expire by time (-1, or beyond 2^53). */
export function retentionMs(configs: Readonly<Record<string, string>>): number | undefined {
  const value = Number(effectiveTopicConfig(configs, "retention.ms"));
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** The topic's `retention.bytes` (per partition), or undefined when its partitions may grow without limit (-1). */
export function retentionBytes(configs: Readonly<Record<string, string>>): number | undefined {
  const value = Number(effectiveTopicConfig(configs, "retention.bytes"));
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** True when the topic's `cleanup.policy` includes "delete", so DeleteRecords and retention may raise its log start. */
export function allowsRecordDeletion(configs: Readonly<Record<string, string>>): boolean {
  return (effectiveTopicConfig(configs, "cleanup.policy") ?? "delete")
    .split(",")
    .some((policy) => policy.trim() === "delete");
}
