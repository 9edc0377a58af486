// Public API of @nereus/broker (private app): start a broker in-process — tests and embedders — with the same
// configuration the `nereus-broker` command reads. Every export is named here.
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
  brokerUsage,
  BROKER_SETTINGS,
  ConfigError,
  type BrokerSetting,
  type LoadBrokerConfigOptions,
  type LoadedBrokerConfig,
} from "./config/load-broker-config.js";
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
