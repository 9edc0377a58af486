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
export { parseCommandLine, UsageError, type CommandLine } from "./config/command-line.js";
export { StartupError } from "./errors/startup-error.js";
export {
  PinoBrokerLogger,
  type BrokerLogger,
  type BrokerLoggerOptions,
  type LogFormat,
  type LogLevel,
  type LogSink,
} from "./logging/broker-logger.js";
export { renderMetrics, LATENCY_BUCKETS_SECONDS } from "./metrics/broker-registry.js";
export { registerCollectedFamilies, type CollectedFamily, type Labels } from "./metrics/collected-families.js";
