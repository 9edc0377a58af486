// The Java interop/perf driver (java/NereusKafkaDriver.java): compiled with javac against the cached kafka-clients
// jar (recompiled only when the source or the jar changes) and run as
// `java NereusKafkaDriver <mode> --bootstrap host:port ...`. Every mode prints one JSON object on its last stdout
// line; a failure is one `kafka-driver: <mode> failed: <cause chain>` line on stderr.
import path from "node:path";
import { type JsonDriver, compileJsonDriver, runJsonDriver } from "./json-driver.js";
import { kafkaJars } from "./kafka-jars.js";
import { PACKAGE_DIR } from "./repo-root.js";

/** Clients log warnings and errors to stderr (kept in the run's log file). */
const LOG4J2_CLIENT = [
  "status=warn",
  "appender.err.type=Console",
  "appender.err.name=err",
  "appender.err.target=SYSTEM_ERR",
  "appender.err.layout.type=PatternLayout",
  "appender.err.layout.pattern=[%d] %p %m (%c)%n",
  "rootLogger.level=WARN",
  "rootLogger.appenderRef.err.ref=err",
  "",
].join("\n");

/** Heap of a driver JVM: small, and the same for every broker. */
export const DRIVER_HEAP_MB = 384;

/** A compiled driver. */
export type JavaDriver = JsonDriver;

/** Options of one driver run. */
export interface DriverRunOptions {
  /** Kills the run after this long (default 180 s). */
  readonly timeoutMs?: number;
  /** Client overrides, `producer.<key>=<value>` or `consumer.<key>=<value>` (the same for both brokers). */
  readonly props?: Readonly<Record<string, string>>;
}

let compiled: Promise<JavaDriver> | undefined;

/**
 * Compiles the driver once per source/jar version.
 * @throws BaselineError for missing java/javac/jars or a compile error (with javac's first error line).
 */
export function javaDriver(log: (line: string) => void = () => {}): Promise<JavaDriver> {
  compiled ??= compileDriver(log).catch((error: unknown) => {
    compiled = undefined;
    throw error;
  });
  return compiled;
}

async function compileDriver(log: (line: string) => void): Promise<JavaDriver> {
  const jars = await kafkaJars(log);
  return compileJsonDriver(
    {
      name: "kafka-driver",
      tool: "kafka-baseline",
      source: path.join(PACKAGE_DIR, "java", "NereusKafkaDriver.java"),
      mainClass: "NereusKafkaDriver",
      classpath: [jars.classpath],
      cacheName: "kafka-baseline",
      files: { "log4j2.properties": LOG4J2_CLIENT },
      jvmArgs: (program) => [
        `-Xmx${String(DRIVER_HEAP_MB)}m`,
        `-Xms${String(DRIVER_HEAP_MB)}m`,
        "-XX:+UseG1GC",
        `-Dlog4j2.configurationFile=${path.join(program.classesDir, "log4j2.properties")}`,
      ],
      cwd: PACKAGE_DIR,
      keepLogsEnv: "NEREUS_KAFKA_BASELINE_KEEP",
    },
    log,
  );
}

/**
 * Runs one driver mode and returns its JSON summary.
 * @param args `--name value` pairs (bootstrap, topic, ...).
 * @throws DriverError with the driver's own error line (or the log's last error) when it exits non-zero or prints
 *   no JSON.
 */
export function runDriver<T = Record<string, unknown>>(
  driver: JavaDriver,
  mode: string,
  args: Readonly<Record<string, string | number | boolean>>,
  options: DriverRunOptions = {},
): Promise<T> {
  const argv: string[] = [];
  for (const [name, value] of Object.entries(args)) argv.push(`--${name}`, String(value));
  for (const [key, value] of Object.entries(options.props ?? {})) argv.push("--prop", `${key}=${value}`);
  return runJsonDriver<T>(driver, mode, argv, options.timeoutMs ?? 180_000);
}
