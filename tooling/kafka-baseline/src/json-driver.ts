// A benchmark driver JVM (the Kafka and the Pulsar harness each have one): a Java program compiled once per source
// and classpath into `.cache/<cacheName>/` (JavaProgram's content-keyed cache), run once per mode as
// `java <main> <mode> --name value ...` with its whole output in a per-run log file. Every mode prints one JSON
// object on its last stdout line; a failure is one `<name>: <mode> failed: <cause chain>` line on stderr.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { JavaProgram } from "@nereus/test-services";
import { LoggedProcess, lastMeaningfulLine, logTail } from "./child-process.js";
import { BaselineError } from "./errors.js";
import { javaExecutable, javacExecutable } from "./kafka-jars.js";
import { REPO_ROOT } from "./repo-root.js";

/** What a harness's driver is. */
export interface JsonDriverSpec {
  /** Names the driver in its error lines and log directory, e.g. "kafka-driver". */
  readonly name: string;
  /** The harness whose errors these are, e.g. "kafka-baseline" (their message prefix). */
  readonly tool: string;
  readonly source: string;
  readonly mainClass: string;
  /** Classpath entries of the client library. */
  readonly classpath: readonly string[];
  /** Directory under `<repo>/.cache/` keeping the compiled classes. */
  readonly cacheName: string;
  /** Extra files written next to the classes (a logging configuration). */
  readonly files?: Readonly<Record<string, string>>;
  /** JVM flags of every run (they may name files next to the compiled classes). */
  readonly jvmArgs: (program: JavaProgram) => readonly string[];
  /** Working directory of the runs. */
  readonly cwd: string;
  /** Variable that keeps this process's run logs when set to "1". */
  readonly keepLogsEnv: string;
}

/** A compiled driver. */
export interface JsonDriver {
  readonly spec: JsonDriverSpec;
  readonly program: JavaProgram;
  /** Where the run logs of this process's driver invocations go. */
  readonly logDir: string;
}

/** A failed driver run: its one-line cause and the path of its full output. */
export class DriverError extends BaselineError {
  readonly logFile: string;
  readonly driverLine: string | undefined;

  constructor(tool: string, mode: string, reason: string, logFile: string, driverLine: string | undefined) {
    super("driver", `${mode}: ${reason} (log: ${logFile})`, { tool });
    this.logFile = logFile;
    this.driverLine = driverLine;
  }
}

/** @throws BaselineError("javac") with javac's first error line. */
export async function compileJsonDriver(spec: JsonDriverSpec, log: (line: string) => void): Promise<JsonDriver> {
  try {
    const program = await JavaProgram.compile({
      sources: [spec.source],
      mainClass: spec.mainClass,
      classpath: spec.classpath,
      cacheDir: path.join(REPO_ROOT, ".cache", spec.cacheName),
      files: spec.files,
      javac: javacExecutable(log),
      java: javaExecutable(),
    });
    return { spec, program, logDir: newLogDir(spec) };
  } catch (error) {
    if (error instanceof BaselineError) throw error;
    throw new BaselineError("javac", error instanceof Error ? error.message : String(error), { tool: spec.tool });
  }
}

let runCounter = 0;
let anyRunFailed = false;
const ownLogDirs = new Set<string>();
/** Driver log directories kept per driver (oldest pruned first): a crashed process leaves at most this many. */
const KEPT_LOG_DIRS = 20;

/**
 * A fresh log directory under `os.tmpdir()/nereus-<name>/` for this process's runs. It is removed at exit unless a
 * run failed (its path is in the error); since a process may be killed without an exit event, creating one also
 * prunes all but the newest {@link KEPT_LOG_DIRS} left behind.
 */
function newLogDir(spec: JsonDriverSpec): string {
  const root = path.join(os.tmpdir(), `nereus-${spec.name}`);
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
      if (anyRunFailed || process.env[spec.keepLogsEnv] === "1") return;
      for (const dir of ownLogDirs) fs.rmSync(dir, { recursive: true, force: true });
    });
  }
  ownLogDirs.add(logDir);
  return logDir;
}

/**
 * Runs one driver mode and returns its JSON summary.
 * @param args Arguments after the mode (`--name value` pairs).
 * @throws DriverError with the driver's own error line (or the log's last line) when it exits non-zero, prints no
 *   JSON or outlives `timeoutMs`.
 */
export async function runJsonDriver<T>(
  driver: JsonDriver,
  mode: string,
  args: readonly string[],
  timeoutMs: number,
): Promise<T> {
  const { spec, program } = driver;
  runCounter += 1;
  const logFile = path.join(driver.logDir, `${String(runCounter).padStart(3, "0")}-${mode}.log`);
  const argv = program.commandLine([mode, ...args], spec.jvmArgs(program));
  const proc = await LoggedProcess.spawn(javaExecutable(), argv, { cwd: spec.cwd, logFile });
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
  const prefix = `${spec.name}: `;
  const driverLine = output.split("\n").find((line) => line.startsWith(prefix));
  const last = lastMeaningfulLine(output) ?? "no output";
  if (timedOut || status.code !== 0 || json === "") anyRunFailed = true;
  if (timedOut)
    throw new DriverError(
      spec.tool,
      mode,
      `no result within ${String(timeoutMs / 1000)} s; ${last}`,
      logFile,
      driverLine,
    );
  if (status.code !== 0) {
    const reason = driverLine?.slice(prefix.length) ?? `exited ${String(status.code ?? status.signal)}: ${last}`;
    throw new DriverError(spec.tool, mode, reason, logFile, driverLine);
  }
  if (json === "") throw new DriverError(spec.tool, mode, `printed no JSON summary; ${last}`, logFile, driverLine);
  return JSON.parse(json) as T;
}
