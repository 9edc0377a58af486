// The Java interop/perf driver (java/NereusKafkaDriver.java): compiled with javac against the cached kafka-clients
// jar into `.cache/kafka-baseline/driver-<hash>/` (git-ignored; recompiled only when the source or the jar changes)
// and run as `java NereusKafkaDriver <mode> --bootstrap host:port ...`. Every mode prints one JSON object on its
// last stdout line; a failure is one `kafka-driver: <mode> failed: <cause chain>` line on stderr.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LoggedProcess, lastMeaningfulLine, logTail, runLogged } from "./child-process.js";
import { BaselineError } from "./errors.js";
import { javaExecutable, javacExecutable, kafkaJars, type KafkaJars } from "./kafka-jars.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/** tooling/kafka-baseline. */
export const PACKAGE_DIR = path.resolve(here, "..");
/** The monorepo root. */
export const REPO_ROOT = path.resolve(PACKAGE_DIR, "../..");
const DRIVER_SOURCE = path.join(PACKAGE_DIR, "java", "NereusKafkaDriver.java");
const MAIN_CLASS = "NereusKafkaDriver";

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
export interface JavaDriver {
  readonly classesDir: string;
  readonly jars: KafkaJars;
  /** Where the run logs of this process's driver invocations go. */
  readonly logDir: string;
}

/** Options of one driver run. */
export interface DriverRunOptions {
  /** Kills the run after this long (default 180 s). */
  readonly timeoutMs?: number;
  /** Client overrides, `producer.<key>=<value>` or `consumer.<key>=<value>` (the same for both brokers). */
  readonly props?: Readonly<Record<string, string>>;
}

/** A failed driver run: its one-line cause and the path of its full output. */
export class DriverError extends BaselineError {
  readonly logFile: string;
  readonly driverLine: string | undefined;

  constructor(mode: string, reason: string, logFile: string, driverLine: string | undefined) {
    super("driver", `${mode}: ${reason} (log: ${logFile})`);
    this.logFile = logFile;
    this.driverLine = driverLine;
  }
}

let compiled: Promise<JavaDriver> | undefined;

/**
 * Compiles the driver once per source/jar version (a marker makes a finished compile count; concurrent compiles
 * each write their own temp dir and the first rename wins).
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
  const source = fs.readFileSync(DRIVER_SOURCE);
  const hash = crypto
    .createHash("sha256")
    .update(source)
    .update(path.basename(jars.clientsJar))
    .digest("hex")
    .slice(0, 16);
  const root = path.join(REPO_ROOT, ".cache", "kafka-baseline");
  const classesDir = path.join(root, `driver-${hash}`);
  const logDir = newLogDir();
  if (fs.existsSync(path.join(classesDir, ".complete"))) return { classesDir, jars, logDir };
  const javac = javacExecutable(log);
  fs.mkdirSync(root, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(root, `driver-${hash}.tmp-`));
  const logFile = path.join(logDir, "javac.log");
  const result = await runLogged(
    javac,
    ["--release", "17", "-encoding", "UTF-8", "-cp", jars.clientsJar, "-d", tmp, DRIVER_SOURCE],
    {
      cwd: PACKAGE_DIR,
      logFile,
      timeoutMs: 180_000,
    },
  );
  if (result.code !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    const output = logTail(logFile, 40);
    const first =
      output.split("\n").find((line) => line.includes("error:")) ?? lastMeaningfulLine(output) ?? "no output";
    throw new BaselineError(
      "javac",
      `compiling ${path.relative(REPO_ROOT, DRIVER_SOURCE)} failed${result.timedOut ? " (timed out)" : ""}: ${first}`,
    );
  }
  fs.writeFileSync(path.join(tmp, "log4j2.properties"), LOG4J2_CLIENT);
  fs.writeFileSync(
    path.join(tmp, ".complete"),
    `${JSON.stringify({ kafkaClients: jars.version, compiledAt: new Date().toISOString() })}\n`,
  );
  try {
    fs.renameSync(tmp, classesDir);
  } catch {
    // Another process finished the same compile first.
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return { classesDir, jars, logDir };
}

let runCounter = 0;
let anyRunFailed = false;
const ownLogDirs = new Set<string>();
/** Driver log directories kept (oldest pruned first): a crashed test process leaves at most this many behind. */
const KEPT_LOG_DIRS = 20;

/**
 * A fresh log directory under `os.tmpdir()/nereus-kafka-driver/` for this process's driver runs. It is removed at
 * exit unless a run failed (its path is in the error); since a test worker may be killed without an exit event,
 * creating one also prunes all but the newest {@link KEPT_LOG_DIRS} left behind.
 */
function newLogDir(): string {
  const root = path.join(os.tmpdir(), "nereus-kafka-driver");
  fs.mkdirSync(root, { recursive: true });
  const old = fs
    .readdirSync(root)
    .map((name) => path.join(root, name))
    .map((dir) => ({ dir, mtime: fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { dir } of old.slice(KEPT_LOG_DIRS - 1)) fs.rmSync(dir, { recursive: true, force: true });
  const logDir = fs.mkdtempSync(path.join(root, `${String(process.pid)}-`));
  if (ownLogDirs.size === 0) {
    process.once("exit", () => {
      if (anyRunFailed || process.env.NEREUS_KAFKA_BASELINE_KEEP === "1") return;
      for (const dir of ownLogDirs) fs.rmSync(dir, { recursive: true, force: true });
    });
  }
  ownLogDirs.add(logDir);
  return logDir;
}

/**
 * Runs one driver mode and returns its JSON summary.
 * @param args `--name value` pairs (bootstrap, topic, ...).
 * @throws DriverError with the driver's own error line (or the log's last error) when it exits non-zero or prints
 *   no JSON.
 */
export async function runDriver<T = Record<string, unknown>>(
  driver: JavaDriver,
  mode: string,
  args: Readonly<Record<string, string | number | boolean>>,
  options: DriverRunOptions = {},
): Promise<T> {
  const argv = [
    `-Xmx${String(DRIVER_HEAP_MB)}m`,
    `-Xms${String(DRIVER_HEAP_MB)}m`,
    "-XX:+UseG1GC",
    `-Dlog4j2.configurationFile=${path.join(driver.classesDir, "log4j2.properties")}`,
    "-cp",
    `${driver.classesDir}${path.delimiter}${driver.jars.classpath}`,
    MAIN_CLASS,
    mode,
  ];
  for (const [name, value] of Object.entries(args)) argv.push(`--${name}`, String(value));
  for (const [key, value] of Object.entries(options.props ?? {})) argv.push("--prop", `${key}=${value}`);
  runCounter += 1;
  const logFile = path.join(driver.logDir, `${String(runCounter).padStart(3, "0")}-${mode}.log`);
  const proc = await LoggedProcess.spawn(javaExecutable(), argv, { cwd: PACKAGE_DIR, logFile });
  let stdout = "";
  proc.onStdoutLine((line) => {
    if (line.startsWith("{")) stdout = line;
  });
  const timeoutMs = options.timeoutMs ?? 180_000;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void proc.stop("SIGKILL");
  }, timeoutMs);
  const status = await proc.exited;
  clearTimeout(timer);
  await new Promise((resolve) => setImmediate(resolve));
  const output = logTail(logFile, 200);
  if (timedOut || status.code !== 0 || stdout === "") anyRunFailed = true;
  const driverLine = output.split("\n").find((line) => line.startsWith("kafka-driver: "));
  if (timedOut)
    throw new DriverError(
      mode,
      `no result within ${String(timeoutMs / 1000)} s; ${lastMeaningfulLine(output) ?? "no output"}`,
      logFile,
      driverLine,
    );
  if (status.code !== 0) {
    const reason =
      driverLine?.replace(/^kafka-driver: /, "") ??
      `exited ${String(status.code ?? status.signal)}: ${lastMeaningfulLine(output) ?? "no output"}`;
    throw new DriverError(mode, reason, logFile, driverLine);
  }
  if (stdout === "")
    throw new DriverError(
      mode,
      `printed no JSON summary; ${lastMeaningfulLine(output) ?? "no output"}`,
      logFile,
      driverLine,
    );
  return JSON.parse(stdout) as T;
}
