// The Java perf driver (java/NereusPulsarDriver.java): compiled with javac against the cached Pulsar client jars
// into `.cache/pulsar-baseline/driver-<hash>/` (git-ignored; recompiled only when the source or the client version
// changes) and run as `java NereusPulsarDriver <mode> --service-url pulsar://... ...`. Every mode prints one JSON
// object on its last stdout line; a failure is one `pulsar-driver: <mode> failed: <cause chain>` line on stderr.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  LoggedProcess,
  REPO_ROOT,
  javaExecutable,
  javacExecutable,
  lastMeaningfulLine,
  logTail,
  runLogged,
} from "@nereus/kafka-baseline";
import { PulsarBaselineError } from "./errors.js";
import { type PulsarJars, pulsarClientJars } from "./pulsar-jars.js";

/** tooling/pulsar-baseline. */
const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DRIVER_SOURCE = path.join(PACKAGE_DIR, "java", "NereusPulsarDriver.java");
const MAIN_CLASS = "NereusPulsarDriver";

/** Heap of a driver JVM: the same for every broker. */
export const DRIVER_HEAP_MB = 512;

/** The driver's modes. */
export type DriverMode = "create-topic" | "produce" | "consume" | "latency";

/** A compiled driver. */
export interface PulsarDriver {
  readonly classesDir: string;
  readonly jars: PulsarJars;
  /** Where this process's run logs go (`os.tmpdir()/nereus-pulsar-driver/<pid>-*`). */
  readonly logDir: string;
}

/** A failed driver run: its one-line cause and the path of its full output. */
export class DriverError extends PulsarBaselineError {
  readonly logFile: string;

  constructor(mode: string, reason: string, logFile: string) {
    super("driver", `${mode}: ${reason} (log: ${logFile})`);
    this.logFile = logFile;
  }
}

let compiled: Promise<PulsarDriver> | undefined;

/**
 * Compiles the driver once per source and client version.
 * @throws PulsarBaselineError for missing java, javac or jars, or a compile error (javac's first error line).
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
  const hash = crypto
    .createHash("sha256")
    .update(fs.readFileSync(DRIVER_SOURCE))
    .update(jars.version)
    .digest("hex")
    .slice(0, 16);
  const root = path.join(REPO_ROOT, ".cache", "pulsar-baseline");
  const classesDir = path.join(root, `driver-${hash}`);
  const logDir = fs.mkdtempSync(path.join(logRoot(), `${String(process.pid)}-`));
  if (fs.existsSync(path.join(classesDir, ".complete"))) return { classesDir, jars, logDir };
  const javac = javacExecutable(log);
  fs.mkdirSync(root, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(root, `driver-${hash}.tmp-`));
  const logFile = path.join(logDir, "javac.log");
  const result = await runLogged(
    javac,
    ["--release", "17", "-encoding", "UTF-8", "-cp", jars.classpath, "-d", tmp, DRIVER_SOURCE],
    { cwd: PACKAGE_DIR, logFile, timeoutMs: 180_000 },
  );
  if (result.code !== 0) {
    fs.rmSync(tmp, { recursive: true, force: true });
    const output = logTail(logFile, 40);
    const first =
      output.split("\n").find((line) => line.includes("error:")) ?? lastMeaningfulLine(output) ?? "no output";
    throw new PulsarBaselineError("javac", `compiling ${path.relative(REPO_ROOT, DRIVER_SOURCE)} failed: ${first}`);
  }
  fs.writeFileSync(path.join(tmp, ".complete"), `${JSON.stringify({ pulsarClient: jars.version })}\n`);
  try {
    fs.renameSync(tmp, classesDir);
  } catch {
    // Another process finished the same compile first.
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return { classesDir, jars, logDir };
}

let anyRunFailed = false;

/**
 * `os.tmpdir()/nereus-pulsar-driver/`, pruned to the newest 20 run-log directories; this process's own is removed
 * at exit unless a run failed (its path is in the error) or NEREUS_PULSAR_BASELINE_KEEP=1.
 */
function logRoot(): string {
  const root = path.join(os.tmpdir(), "nereus-pulsar-driver");
  fs.mkdirSync(root, { recursive: true });
  const old = fs
    .readdirSync(root)
    .map((name) => path.join(root, name))
    .map((dir) => ({ dir, mtime: fs.statSync(dir, { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const { dir } of old.slice(19)) fs.rmSync(dir, { recursive: true, force: true });
  process.once("exit", () => {
    if (anyRunFailed || process.env.NEREUS_PULSAR_BASELINE_KEEP === "1") return;
    for (const name of fs.readdirSync(root))
      if (name.startsWith(`${String(process.pid)}-`))
        fs.rmSync(path.join(root, name), { recursive: true, force: true });
  });
  return root;
}

let runCounter = 0;

/**
 * Runs one driver mode and returns its JSON summary.
 * @param args `--name value` pairs (service-url, topic, ...).
 * @throws DriverError with the driver's own error line (or the log's last error) when it exits non-zero, prints no
 *   JSON or outlives `timeoutMs` (default 600 s).
 */
export async function runPulsarDriver<T>(
  driver: PulsarDriver,
  mode: DriverMode,
  args: Readonly<Record<string, string | number>>,
  timeoutMs = 600_000,
): Promise<T> {
  const argv = [
    `-Xms${String(DRIVER_HEAP_MB)}m`,
    `-Xmx${String(DRIVER_HEAP_MB)}m`,
    "-XX:+UseG1GC",
    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
    "-cp",
    `${driver.classesDir}${path.delimiter}${driver.jars.classpath}`,
    MAIN_CLASS,
    mode,
  ];
  for (const [name, value] of Object.entries(args)) argv.push(`--${name}`, String(value));
  runCounter += 1;
  const logFile = path.join(driver.logDir, `${String(runCounter).padStart(3, "0")}-${mode}.log`);
  const proc = await LoggedProcess.spawn(javaExecutable(), argv, { cwd: PACKAGE_DIR, logFile });
  let json = "";
  proc.onStdoutLine((line) => {
    if (line.startsWith("{")) json = line;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void proc.stop("SIGKILL");
  }, timeoutMs);
  const status = await proc.exited;
  clearTimeout(timer);
  await new Promise((resolve) => setImmediate(resolve));
  const output = logTail(logFile, 200);
  const driverLine = output.split("\n").find((line) => line.startsWith("pulsar-driver: "));
  if (timedOut || status.code !== 0 || json === "") anyRunFailed = true;
  if (timedOut)
    throw new DriverError(
      mode,
      `no result within ${String(timeoutMs / 1000)} s; ${lastMeaningfulLine(output) ?? "no output"}`,
      logFile,
    );
  if (status.code !== 0)
    throw new DriverError(
      mode,
      driverLine?.replace(/^pulsar-driver: /, "") ??
        `exited ${String(status.code ?? status.signal)}: ${lastMeaningfulLine(output) ?? "no output"}`,
      logFile,
    );
  if (json === "")
    throw new DriverError(mode, `printed no JSON; ${lastMeaningfulLine(output) ?? "no output"}`, logFile);
  return JSON.parse(json) as T;
}
