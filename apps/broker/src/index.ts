// Public API of @nereus/broker (private app): start a broker in-process — tests and embedders — with the same
// configuration the `nereus` command reads. Every export is named here.
export { startBroker, type RunningBroker, type StartBrokerOptions } from "./start-broker.js";
export {
  BrokerConfigSchema,
  BROKER_PROFILES,
  MATERIALIZATION_MODES,
  materializationMode,
  type BrokerConfig,
  type BrokerConfigInput,
  type MaterializationMode,
} from "./config/broker-config.js";
export {
  loadBrokerConfig,
  type LoadBrokerConfigOptions,
  type LoadedBrokerConfig,
} from "./config/load-broker-config.js";
export { BROKER_SETTINGS, type BrokerSetting } from "./config/broker-settings.js";
export { ConfigError } from "./config/config-error.js";
export { brokerUsage } from "./cli/broker-usage.js";
export { parseCommandLine, UsageError, type CommandLine } from "./cli/command-line.js";
export { StartupError } from "./errors/startup-error.js";
export { JsonLogger, type LogLevel, type LogSink } from "./logging/json-logger.js";
export {
  MetricsRegistry,
  Counter,
  Gauge,
  Histogram,
  LATENCY_BUCKETS_SECONDS,
  type CollectedFamily,
  type Labels,
} from "./metrics/metrics-registry.js";
