// Public API of @nereus/pulsar-baseline: Apache Pulsar standalone from the Maven jars, the Nereus broker with its
// Pulsar listener, a binary-protocol readiness probe and the Java client perf driver.
export { ApachePulsar, startApachePulsar, type ApachePulsarOptions } from "./apache-pulsar.js";
export { NereusPulsar, startNereusPulsar, type NereusPulsarOptions } from "./nereus-pulsar.js";
export { probePulsar, waitForPulsar, type PulsarProbeResult, type WaitForPulsarOptions } from "./pulsar-probe.js";
export { pulsarDriver, runPulsarDriver, DRIVER_HEAP_MB, type DriverMode, type PulsarDriver } from "./pulsar-driver.js";
export { DriverError } from "@nereus/kafka-baseline";
export type * from "./driver-results.js";
export { pulsarBrokerJars, pulsarClientJars, type PulsarJars } from "./pulsar-jars.js";
export { PulsarBaselineError } from "./errors.js";
