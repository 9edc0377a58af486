// The Java perf driver (java/NereusPulsarDriver.java): compiled with javac against the cached Pulsar client jars
// (recompiled only when the source or the client version changes) and run as
// `java NereusPulsarDriver <mode> --service-url pulsar://... ...`. Every mode prints one JSON object on its last
// stdout line; a failure is one `pulsar-driver: <mode> failed: <cause chain>` line on stderr.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type JsonDriver, compileJsonDriver, runJsonDriver } from "@nereus/kafka-baseline";
import { pulsarClientJars } from "./pulsar-jars.js";

/** tooling/pulsar-baseline. */
const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Heap of a driver JVM: the same for every broker. */
export const DRIVER_HEAP_MB = 512;

/** The driver's modes. */
export type DriverMode = "create-topic" | "produce" | "consume" | "latency";

/** A compiled driver. */
export type PulsarDriver = JsonDriver;

let compiled: Promise<PulsarDriver> | undefined;

/**
 * Compiles the driver once per source and client version.
 * @throws BaselineError for missing java, javac or jars, or a compile error (javac's first error line).
 */
export function pulsarDriver(log: (line: string) => void = () => {}): Promise<PulsarDriver> {
  compiled ??= compile(log).catch((error: unknown) => {
    compiled = undefined;
    throw error;
  });
  return compiled;
}

async function compile(log: (line: string) => void): Promise<PulsarDriver> {
  const jars = await pulsarClientJars(log);
  return compileJsonDriver(
    {
      name: "pulsar-driver",
      tool: "pulsar-baseline",
      source: path.join(PACKAGE_DIR, "java", "NereusPulsarDriver.java"),
      mainClass: "NereusPulsarDriver",
      classpath: [jars.classpath],
      cacheName: "pulsar-baseline",
      jvmArgs: () => [
        `-Xms${String(DRIVER_HEAP_MB)}m`,
        `-Xmx${String(DRIVER_HEAP_MB)}m`,
        "-XX:+UseG1GC",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
      ],
      cwd: PACKAGE_DIR,
      keepLogsEnv: "NEREUS_PULSAR_BASELINE_KEEP",
    },
    log,
  );
}

/**
 * Runs one driver mode and returns its JSON summary.
 * @param args `--name value` pairs (service-url, topic, ...).
 * @throws DriverError with the driver's own error line (or the log's last error) when it exits non-zero, prints no
 *   JSON or outlives `timeoutMs` (default 600 s).
 */
export function runPulsarDriver<T>(
  driver: PulsarDriver,
  mode: DriverMode,
  args: Readonly<Record<string, string | number>>,
  timeoutMs = 600_000,
): Promise<T> {
  const argv = Object.entries(args).flatMap(([name, value]) => [`--${name}`, String(value)]);
  return runJsonDriver<T>(driver, mode, argv, timeoutMs);
}
