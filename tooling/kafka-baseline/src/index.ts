// Public API of @nereus/kafka-baseline: Apache Kafka as a KRaft single node, the Nereus broker as a child process,
// the Java kafka-clients interop/perf driver, and a protocol-level readiness probe.
export { ApacheKafka, startApacheKafka, randomClusterId, type ApacheKafkaOptions } from "./apache-kafka.js";
export {
  NereusBroker,
  startNereusBroker,
  BROKER_APP_DIR,
  type BrokerEntry,
  type NereusBrokerOptions,
} from "./nereus-broker.js";
export { javaDriver, runDriver, DRIVER_HEAP_MB, type JavaDriver, type DriverRunOptions } from "./java-driver.js";
export { DriverError, compileJsonDriver, runJsonDriver, type JsonDriver, type JsonDriverSpec } from "./json-driver.js";
export { PACKAGE_DIR, REPO_ROOT } from "./repo-root.js";
export type * from "./driver-results.js";
export { kafkaJars, javaExecutable, javacExecutable, JDK_PACKAGE, type KafkaJars } from "./kafka-jars.js";
export { probeKafka, waitForKafka, type ProbeResult } from "./kafka-probe.js";
export { LoggedProcess, freePorts, lastMeaningfulLine, logTail, runLogged, type ExitStatus } from "./child-process.js";
export { BaselineError } from "./errors.js";
export { processCpuSeconds, mainThreadCpuSeconds } from "./process-cpu.js";
export { machineCpuTicks, busyFraction, type MachineCpuTicks } from "./machine-cpu.js";
export {
  PAGE_REPORTING_PARAMETERS,
  describePageReporting,
  pageReportingParameters,
  parameterValue,
} from "./host-memory.js";
export {
  FRESH_MEMORY_PROBE_BYTES,
  WAKE_PROBE_ROUNDS,
  describeFreshMemory,
  describeWakeRoundTrip,
  freshMemoryTouchRate,
  threadWakeRoundTrip,
  type WakeRoundTrip,
} from "./machine-probes.js";
