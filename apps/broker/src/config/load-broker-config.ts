// Builds the broker configuration from, in increasing precedence: the schema's defaults, a JSON config file
// (`--config` or NEREUS_CONFIG), NEREUS_* environment variables and command-line flags. Every value remembers
// where it came from, so a validation error names the field and its source in one line, e.g.
//   kafka.port (from --kafka-port=abc): Invalid input: expected number, received string
// Flags and variables are listed in BROKER_SETTINGS (the README's reference table is generated from it by hand).
import { readFileSync } from "node:fs";
import path from "node:path";
import { type BrokerConfig, BrokerConfigSchema } from "./broker-config.js";

/** A bad configuration: `message` is one line naming every bad field. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

type ValueType = "string" | "int" | "bool" | "list";

/** One flag / environment variable and the config field it sets. */
export interface BrokerSetting {
  readonly flag: string;
  readonly env: string;
  readonly path: readonly string[];
  readonly type: ValueType;
  readonly help: string;
  /** Other fields the setting implies (e.g. an etcd endpoint selects the etcd metadata store). */
  readonly implies?: { readonly path: readonly string[]; readonly value: unknown };
}

const ETCD = { path: ["storage", "metadata", "kind"], value: "etcd" } as const;
const S3 = { path: ["storage", "objects", "kind"], value: "s3" } as const;

/** Every flag and environment variable the broker reads. */
export const BROKER_SETTINGS: readonly BrokerSetting[] = [
  {
    flag: "data-dir",
    env: "NEREUS_DATA_DIR",
    path: ["dataDir"],
    type: "string",
    help: "data directory of the embedded stores (default ./.nereus-data)",
  },
  { flag: "cluster", env: "NEREUS_CLUSTER", path: ["cluster"], type: "string", help: "cluster name (default nereus)" },
  { flag: "node-id", env: "NEREUS_NODE_ID", path: ["nodeId"], type: "int", help: "Kafka node id (default 0)" },
  {
    flag: "kafka-host",
    env: "NEREUS_KAFKA_HOST",
    path: ["kafka", "host"],
    type: "string",
    help: "Kafka listener address (default 127.0.0.1)",
  },
  {
    flag: "kafka-port",
    env: "NEREUS_KAFKA_PORT",
    path: ["kafka", "port"],
    type: "int",
    help: "Kafka listener port (default 9092; 0 = any free port)",
  },
  {
    flag: "advertised-host",
    env: "NEREUS_KAFKA_ADVERTISED_HOST",
    path: ["kafka", "advertisedHost"],
    type: "string",
    help: "host clients are told to connect to",
  },
  {
    flag: "advertised-port",
    env: "NEREUS_KAFKA_ADVERTISED_PORT",
    path: ["kafka", "advertisedPort"],
    type: "int",
    help: "port clients are told to connect to",
  },
  {
    flag: "max-frame-bytes",
    env: "NEREUS_KAFKA_MAX_FRAME_BYTES",
    path: ["kafka", "maxFrameBytes"],
    type: "int",
    help: "largest request frame (default 104857600)",
  },
  {
    flag: "kafka-tail-cache-bytes",
    env: "NEREUS_KAFKA_TAIL_CACHE_BYTES",
    path: ["kafka", "tailCacheBytes"],
    type: "int",
    help: "bytes of each partition's newest batches kept in memory for consumers at the log end (default 256 KiB; 0 = none)",
  },
  {
    flag: "kafka-tail-cache-max-bytes",
    env: "NEREUS_KAFKA_TAIL_CACHE_MAX_BYTES",
    path: ["kafka", "tailCacheMaxBytes"],
    type: "int",
    help: "bytes the tail caches of all partitions hold at most (default 32 MiB)",
  },
  {
    flag: "kafka-read-ahead-max-bytes",
    env: "NEREUS_KAFKA_READ_AHEAD_MAX_BYTES",
    path: ["kafka", "readAheadMaxBytes"],
    type: "int",
    help: "bytes the Fetch read-ahead buffers of all partitions hold at most (default 64 MiB; 0 turns read-ahead off)",
  },
  {
    flag: "kafka-max-inflight-appends",
    env: "NEREUS_KAFKA_MAX_INFLIGHT_APPENDS",
    path: ["kafka", "maxInFlightAppends"],
    type: "int",
    help: "appends of one partition in flight at once (default 2; see --kafka-pipelined-append-min-bytes)",
  },
  {
    flag: "kafka-pipelined-append-min-bytes",
    env: "NEREUS_KAFKA_PIPELINED_APPEND_MIN_BYTES",
    path: ["kafka", "pipelinedAppendMinBytes"],
    type: "int",
    help: "with an append of a partition in flight, the next starts only once this many bytes wait for it (default 131072; 0 = at once)",
  },
  {
    flag: "max-connections",
    env: "NEREUS_MAX_CONNECTIONS",
    path: ["connections", "maxConnections"],
    type: "int",
    help: "client connections open at once (default 10000)",
  },
  {
    flag: "max-connections-per-ip",
    env: "NEREUS_MAX_CONNECTIONS_PER_IP",
    path: ["connections", "maxConnectionsPerIp"],
    type: "int",
    help: "client connections open at once from one address (default 1000)",
  },
  {
    flag: "idle-timeout-ms",
    env: "NEREUS_IDLE_TIMEOUT_MS",
    path: ["connections", "idleTimeoutMs"],
    type: "int",
    help: "close connections idle this long (default 600000; 0 = never)",
  },
  {
    flag: "request-memory-bytes",
    env: "NEREUS_REQUEST_MEMORY_BYTES",
    path: ["connections", "requestMemoryBytes"],
    type: "int",
    help: "bytes of requests held at once before reading pauses (default 536870912 = 512 MiB)",
  },
  {
    flag: "admin-host",
    env: "NEREUS_ADMIN_HOST",
    path: ["admin", "host"],
    type: "string",
    help: "admin HTTP address (default 127.0.0.1)",
  },
  {
    flag: "admin-port",
    env: "NEREUS_ADMIN_PORT",
    path: ["admin", "port"],
    type: "int",
    help: "admin HTTP port with /healthz and /metrics (default 9644)",
  },
  {
    flag: "admin",
    env: "NEREUS_ADMIN_ENABLED",
    path: ["admin", "enabled"],
    type: "bool",
    help: "serve admin HTTP (default true; --no-admin disables)",
  },
  {
    flag: "default-profile",
    env: "NEREUS_DEFAULT_PROFILE",
    path: ["storage", "defaultProfile"],
    type: "string",
    help: "storage profile of new topics (default OBJECT_WAL_SYNC_OBJECT)",
  },
  {
    flag: "wal-linger-ms",
    env: "NEREUS_WAL_LINGER_MS",
    path: ["storage", "walLingerMs"],
    type: "int",
    help: "Object WAL linger before an upload (default 0 on the filesystem store, 5 on S3)",
  },
  {
    flag: "durability",
    env: "NEREUS_DURABILITY",
    path: ["storage", "durability"],
    type: "string",
    help: "embedded stores: fsync (default; acks survive power loss) or os-buffered (no fsync; acks survive a broker crash, not an OS crash — Kafka's default)",
  },
  {
    flag: "materialization",
    env: "NEREUS_MATERIALIZATION",
    path: ["storage", "materialization"],
    type: "bool",
    help: "which topics get read-optimized generations in the background: all, async (only OBJECT_WAL_ASYNC_OBJECT topics) or off (default async on the filesystem store, all on S3; true = all, false = off)",
  },
  {
    flag: "sqlite-path",
    env: "NEREUS_SQLITE_PATH",
    path: ["storage", "metadata", "path"],
    type: "string",
    help: "SQLite metadata file (default <data-dir>/metadata.sqlite)",
    implies: { path: ["storage", "metadata", "kind"], value: "sqlite" },
  },
  {
    flag: "etcd-endpoints",
    env: "NEREUS_ETCD_ENDPOINTS",
    path: ["storage", "metadata", "endpoints"],
    type: "list",
    help: "comma-separated etcd URLs: metadata in etcd instead of SQLite",
    implies: ETCD,
  },
  {
    flag: "objects-dir",
    env: "NEREUS_OBJECTS_DIR",
    path: ["storage", "objects", "root"],
    type: "string",
    help: "filesystem object store (default <data-dir>/objects)",
    implies: { path: ["storage", "objects", "kind"], value: "filesystem" },
  },
  {
    flag: "objects-read-buffer-bytes",
    env: "NEREUS_OBJECTS_READ_BUFFER_BYTES",
    path: ["storage", "objects", "readBufferBytes"],
    type: "int",
    help: "filesystem object store: bytes of reused buffers for the reads on the event loop (default 268435456 = 256 MiB, let go after 30 s without reads; 0 = a new buffer per read)",
    implies: { path: ["storage", "objects", "kind"], value: "filesystem" },
  },
  {
    flag: "objects-hot-read-segments",
    env: "NEREUS_OBJECTS_HOT_READ_SEGMENTS",
    path: ["storage", "objects", "hotReadSegments"],
    type: "int",
    help: "filesystem object store: newest segments read on the event loop from the page cache (default 16; 0 = all reads on worker threads)",
    implies: { path: ["storage", "objects", "kind"], value: "filesystem" },
  },
  {
    flag: "objects-layout",
    env: "NEREUS_OBJECTS_LAYOUT",
    path: ["storage", "objects", "layout"],
    type: "string",
    help: "filesystem object store: segments (default; small objects appended to segment files) or files (a file per object)",
    implies: { path: ["storage", "objects", "kind"], value: "filesystem" },
  },
  {
    flag: "s3-bucket",
    env: "NEREUS_S3_BUCKET",
    path: ["storage", "objects", "bucket"],
    type: "string",
    help: "S3 bucket: objects in S3 instead of the filesystem",
    implies: S3,
  },
  {
    flag: "s3-endpoint",
    env: "NEREUS_S3_ENDPOINT",
    path: ["storage", "objects", "endpoint"],
    type: "string",
    help: "S3-compatible endpoint URL (omit for AWS)",
    implies: S3,
  },
  {
    flag: "s3-region",
    env: "NEREUS_S3_REGION",
    path: ["storage", "objects", "region"],
    type: "string",
    help: "S3 region (default us-east-1)",
    implies: S3,
  },
  {
    flag: "s3-access-key-id",
    env: "NEREUS_S3_ACCESS_KEY_ID",
    path: ["storage", "objects", "accessKeyId"],
    type: "string",
    help: "S3 access key id",
    implies: S3,
  },
  {
    flag: "s3-secret-access-key",
    env: "NEREUS_S3_SECRET_ACCESS_KEY",
    path: ["storage", "objects", "secretAccessKey"],
    type: "string",
    help: "S3 secret access key",
    implies: S3,
  },
  {
    flag: "s3-force-path-style",
    env: "NEREUS_S3_FORCE_PATH_STYLE",
    path: ["storage", "objects", "forcePathStyle"],
    type: "bool",
    help: "path-style S3 URLs (most S3-compatible servers)",
    implies: S3,
  },
  {
    flag: "s3-key-prefix",
    env: "NEREUS_S3_KEY_PREFIX",
    path: ["storage", "objects", "keyPrefix"],
    type: "string",
    help: "prefix of every object key",
    implies: S3,
  },
  {
    flag: "default-partitions",
    env: "NEREUS_DEFAULT_PARTITIONS",
    path: ["topics", "defaultPartitions"],
    type: "int",
    help: "partitions of auto-created topics (default 1)",
  },
  {
    flag: "retention-check-interval-ms",
    env: "NEREUS_RETENTION_CHECK_INTERVAL_MS",
    path: ["topics", "retentionCheckIntervalMs"],
    type: "int",
    help: "period of the retention.ms sweep (default 300000; 0 = never)",
  },
  {
    flag: "auto-create-topics-per-second",
    env: "NEREUS_AUTO_CREATE_TOPICS_PER_SECOND",
    path: ["topics", "autoCreatePerSecond"],
    type: "int",
    help: "topics auto-created per second over all clients (default 100)",
  },
  {
    flag: "max-partitions-per-broker",
    env: "NEREUS_MAX_PARTITIONS_PER_BROKER",
    path: ["topics", "maxPartitionsPerBroker"],
    type: "int",
    help: "partitions of all topics together (default 100000)",
  },
  {
    flag: "auto-create-topics",
    env: "NEREUS_AUTO_CREATE_TOPICS",
    path: ["topics", "autoCreate"],
    type: "bool",
    help: "create unknown topics on Metadata (default true)",
  },
  {
    flag: "group-initial-rebalance-delay-ms",
    env: "NEREUS_GROUP_INITIAL_REBALANCE_DELAY_MS",
    path: ["groups", "initialRebalanceDelayMs"],
    type: "int",
    help: "wait for more members before a new group's first generation (default 3000)",
  },
  {
    flag: "group-min-session-timeout-ms",
    env: "NEREUS_GROUP_MIN_SESSION_TIMEOUT_MS",
    path: ["groups", "minSessionTimeoutMs"],
    type: "int",
    help: "smallest consumer session timeout (default 6000)",
  },
  {
    flag: "group-max-session-timeout-ms",
    env: "NEREUS_GROUP_MAX_SESSION_TIMEOUT_MS",
    path: ["groups", "maxSessionTimeoutMs"],
    type: "int",
    help: "largest consumer session timeout (default 1800000)",
  },
  {
    flag: "log-level",
    env: "NEREUS_LOG_LEVEL",
    path: ["log", "level"],
    type: "string",
    help: "debug, info, warn or error (default info)",
  },
  {
    flag: "shutdown-timeout-ms",
    env: "NEREUS_SHUTDOWN_TIMEOUT_MS",
    path: ["shutdownTimeoutMs"],
    type: "int",
    help: "graceful-shutdown wait for in-flight requests (default 10000)",
  },
];

/** What the command line asked for besides the configuration. */
export interface LoadedBrokerConfig {
  readonly config: BrokerConfig;
  readonly help: boolean;
  readonly printConfig: boolean;
}

export interface LoadBrokerConfigOptions {
  readonly argv?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Relative paths resolve against this directory (default the process's working directory). */
  readonly cwd?: string;
}

type RawObject = Record<string, unknown>;

function isObject(value: unknown): value is RawObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The configuration being assembled plus, per dotted path, where its value came from. */
class Layers {
  readonly raw: RawObject = {};
  readonly #sources = new Map<string, string>();

  set(fieldPath: readonly string[], value: unknown, source: string): void {
    let node = this.raw;
    for (const key of fieldPath.slice(0, -1)) {
      const next = node[key];
      if (!isObject(next)) node[key] = {};
      node = node[key] as RawObject;
    }
    node[fieldPath.at(-1)!] = value;
    this.#sources.set(fieldPath.join("."), source);
  }

  /** Merges a config file's object, leaf by leaf. */
  merge(value: RawObject, source: string, prefix: readonly string[] = []): void {
    for (const [key, child] of Object.entries(value)) {
      if (isObject(child) && Object.keys(child).length > 0) this.merge(child, source, [...prefix, key]);
      else this.set([...prefix, key], child, source);
    }
  }

  /** Where the value at `fieldPath` (or its nearest ancestor) came from. */
  sourceOf(fieldPath: readonly PropertyKey[]): string | undefined {
    for (let length = fieldPath.length; length > 0; length -= 1) {
      const source = this.#sources.get(fieldPath.slice(0, length).map(String).join("."));
      if (source !== undefined) return source;
    }
    return undefined;
  }
}

function parseValue(type: ValueType, text: string): unknown {
  switch (type) {
    case "string":
      return text;
    case "int":
      return /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text;
    case "bool": {
      const lowered = text.trim().toLowerCase();
      if (["true", "1", "yes", "on"].includes(lowered)) return true;
      if (["false", "0", "no", "off"].includes(lowered)) return false;
      return text;
    }
    case "list":
      return text
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item.length > 0);
  }
}

function applySetting(layers: Layers, setting: BrokerSetting, text: string, source: string): void {
  if (setting.implies !== undefined) layers.set(setting.implies.path, setting.implies.value, source);
  layers.set(setting.path, parseValue(setting.type, text), source);
}

interface ParsedFlags {
  readonly values: Array<{ setting: BrokerSetting; text: string; source: string }>;
  readonly configFile: string | undefined;
  readonly help: boolean;
  readonly printConfig: boolean;
}

function parseFlags(argv: readonly string[]): ParsedFlags {
  const values: ParsedFlags["values"] = [];
  let configFile: string | undefined;
  let help = false;
  let printConfig = false;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (argument === "--help" || argument === "-h") {
      help = true;
      continue;
    }
    if (argument === "--print-config") {
      printConfig = true;
      continue;
    }
    if (!argument.startsWith("--"))
      throw new ConfigError(
        `unexpected argument ${JSON.stringify(argument)} (flags look like --kafka-port 9092; see --help)`,
      );
    const equals = argument.indexOf("=");
    let name = equals < 0 ? argument.slice(2) : argument.slice(2, equals);
    let inline = equals < 0 ? undefined : argument.slice(equals + 1);
    if (name === "config") {
      const file = inline ?? argv[++index];
      if (file === undefined) throw new ConfigError("--config needs a file name");
      configFile = file;
      continue;
    }
    let setting = BROKER_SETTINGS.find((candidate) => candidate.flag === name);
    if (setting === undefined && name.startsWith("no-")) {
      const negated = BROKER_SETTINGS.find(
        (candidate) => candidate.flag === name.slice(3) && candidate.type === "bool",
      );
      if (negated !== undefined && inline === undefined) {
        setting = negated;
        name = negated.flag;
        inline = "false";
      }
    }
    if (setting === undefined) throw new ConfigError(`unknown flag --${name} (see --help)`);
    if (inline === undefined) {
      const next = argv[index + 1];
      if (setting.type === "bool" && (next === undefined || next.startsWith("--"))) inline = "true";
      else if (next === undefined) throw new ConfigError(`--${name} needs a value`);
      else {
        inline = next;
        index += 1;
      }
    }
    values.push({ setting, text: inline, source: `--${name}=${inline}` });
  }
  return { values, configFile, help, printConfig };
}

function readConfigFile(file: string): RawObject {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(
      `config file ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`config file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw new ConfigError(`config file ${file} must hold a JSON object`);
  return parsed;
}

function redact(source: string): string {
  return /secret/i.test(source) ? source.replace(/=.*$/, "=<redacted>") : source;
}

/**
 * Reads flags, environment and the config file and validates the result. Throws {@link ConfigError} with a
 * one-line message naming each bad field and where its value came from.
 */
export function loadBrokerConfig(options: LoadBrokerConfigOptions = {}): LoadedBrokerConfig {
  const argv = options.argv ?? process.argv.slice(2);
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const flags = parseFlags(argv);
  const layers = new Layers();
  const configFile = flags.configFile ?? env.NEREUS_CONFIG;
  if (configFile !== undefined && configFile !== "") {
    const file = path.resolve(cwd, configFile);
    layers.merge(readConfigFile(file), `config file ${file}`);
  }
  for (const setting of BROKER_SETTINGS) {
    const text = env[setting.env];
    if (text !== undefined && text !== "") applySetting(layers, setting, text, `${setting.env}=${text}`);
  }
  for (const { setting, text, source } of flags.values) applySetting(layers, setting, text, source);
  const result = BrokerConfigSchema.safeParse(layers.raw);
  if (!result.success) {
    const describe = (fieldPath: readonly PropertyKey[], message: string): string => {
      const field = fieldPath.length === 0 ? "(config)" : fieldPath.map(String).join(".");
      const source = layers.sourceOf(fieldPath);
      return `${field}${source === undefined ? "" : ` (from ${redact(source)})`}: ${message}`;
    };
    const problems = result.error.issues.flatMap((issue) =>
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => describe([...issue.path, key], "unknown field"))
        : [describe(issue.path, issue.message)],
    );
    throw new ConfigError(`bad config: ${problems.join("; ")}`);
  }
  const config = result.data;
  return {
    config: { ...config, dataDir: path.resolve(cwd, config.dataDir) },
    help: flags.help,
    printConfig: flags.printConfig,
  };
}

/** The --help text. */
export function brokerUsage(): string {
  const lines = [
    "Usage: nereus-broker [--config file.json] [flags]",
    "",
    "Serves Kafka clients on Nereus. Without flags: filesystem objects + SQLite metadata in ./.nereus-data,",
    "Kafka on 127.0.0.1:9092, admin HTTP (/healthz, /metrics) on 127.0.0.1:9644.",
    "Precedence: flags > NEREUS_* environment > config file (--config or NEREUS_CONFIG) > defaults.",
    "",
    "  --config <file>                         JSON config file (same fields as --print-config shows)",
    "  --print-config                          print the resulting configuration as JSON and exit",
  ];
  for (const setting of BROKER_SETTINGS) {
    const flag = `  --${setting.flag}${setting.type === "bool" ? "" : ` <${setting.type === "list" ? "a,b" : setting.type === "int" ? "n" : "value"}>`}`;
    lines.push(`${flag.padEnd(42)}${setting.help} [${setting.env}]`);
  }
  return lines.join("\n");
}
