// A small Java program that tests and benchmarks drive real Java clients with (kafka-clients, pulsar-client): its
// sources compiled with javac against a classpath — a cached Maven artifact set or given jars — then run with a
// deadline (stdout collected as lines) or spawned (lines read while it runs). With `cacheDir` the classes are kept
// per content hash of the sources and classpath, so later runs skip javac; without it they live in a temporary
// directory that `dispose` removes.
import { type ChildProcess, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type ArtifactSetName, artifactSetDir } from "./maven-cache.js";

/** What to compile and how to run it. */
export interface JavaProgramOptions {
  /** Absolute paths of the .java files. */
  readonly sources: readonly string[];
  /** The class whose `main` runs. */
  readonly mainClass: string;
  /** Compile and run against every jar of this (already fetched) artifact set ... */
  readonly artifactSet?: ArtifactSetName;
  /** ... or against these classpath entries. */
  readonly classpath?: readonly string[];
  /** Keep the compiled classes under this directory, keyed by a hash of the sources and classpath. */
  readonly cacheDir?: string;
  /** Extra files written next to the classes (e.g. a logging configuration), by file name. */
  readonly files?: Readonly<Record<string, string>>;
  /** The javac to use (default: $JAVA_HOME/bin/javac, else javac on the PATH). */
  readonly javac?: string;
  /** The java launcher (default: $JAVA_HOME/bin/java, else java on the PATH). */
  readonly java?: string;
}

/** Options of one run. */
export interface JavaRunOptions {
  /** Kills the JVM after this long (default 120 s). */
  readonly timeoutMs?: number;
  /** JVM flags placed before the classpath (default: fast start-up flags). */
  readonly jvmArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** The outcome of {@link JavaProgram.run}. */
export interface JavaRunResult {
  readonly code: number | null;
  /** Non-empty stdout lines. */
  readonly lines: string[];
  /** The last 20,000 characters of stderr. */
  readonly stderr: string;
}

/** A JVM started with {@link JavaProgram.spawn}. */
export interface SpawnedJava {
  readonly child: ChildProcess;
  /** Complete non-empty stdout lines so far. */
  readonly lines: string[];
  /** Resolves with the exit code once the process ended. */
  readonly exited: Promise<number | null>;
  /** The last 20,000 characters of stderr so far. */
  stderr(): string;
}

/** Flags that make a short-lived client JVM start fast. */
const QUICK_START = ["-XX:TieredStopAtLevel=1", "-Xshare:auto"];
const STDERR_KEPT = 20_000;
const JAVAC_TIMEOUT_MS = 180_000;

/** A compiled Java program. */
export class JavaProgram {
  /** The directory holding the compiled classes (and `files`). */
  readonly classesDir: string;
  /** The run classpath: the classes first, then the libraries. */
  readonly classpath: string;
  readonly mainClass: string;
  readonly #java: string;
  readonly #temporary: boolean;

  private constructor(classesDir: string, libraries: string, options: JavaProgramOptions, temporary: boolean) {
    this.classesDir = classesDir;
    this.classpath = `${classesDir}${path.delimiter}${libraries}`;
    this.mainClass = options.mainClass;
    this.#java = options.java ?? jdkTool("java");
    this.#temporary = temporary;
  }

  /**
   * Compiles `options.sources` (or reuses the cached classes).
   * @throws Error naming the source and javac's first error line when compiling fails.
   */
  static async compile(options: JavaProgramOptions): Promise<JavaProgram> {
    const libraries = libraryClasspath(options);
    if (options.cacheDir === undefined) {
      const classes = fs.mkdtempSync(path.join(os.tmpdir(), `nereus-java-${options.mainClass}-`));
      await javac(options, libraries, classes);
      return new JavaProgram(classes, libraries, options, true);
    }
    const classes = path.join(options.cacheDir, `${options.mainClass}-${contentHash(options, libraries)}`);
    if (!fs.existsSync(path.join(classes, ".complete"))) {
      fs.mkdirSync(options.cacheDir, { recursive: true });
      const staging = fs.mkdtempSync(`${classes}.tmp-`);
      try {
        await javac(options, libraries, staging);
        fs.writeFileSync(path.join(staging, ".complete"), `${new Date().toISOString()}\n`);
        fs.renameSync(staging, classes);
      } catch (error) {
        fs.rmSync(staging, { recursive: true, force: true });
        // Another process finished the same compile first: its classes are as good as ours.
        if (!fs.existsSync(path.join(classes, ".complete"))) throw error;
      }
    }
    return new JavaProgram(classes, libraries, options, false);
  }

  /** The `java` command line (without the launcher) running the main class with `args`. */
  commandLine(args: readonly string[], jvmArgs: readonly string[] = QUICK_START): string[] {
    return [...jvmArgs, "-cp", this.classpath, this.mainClass, ...args];
  }

  /** Runs the program to its end. @throws Error when it outlives `timeoutMs` (the JVM is killed). */
  run(args: readonly string[], options: JavaRunOptions = {}): Promise<JavaRunResult> {
    const spawned = this.spawn(args, options);
    const timeoutMs = options.timeoutMs ?? 120_000;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        spawned.child.kill("SIGKILL");
        reject(
          new Error(
            `${this.mainClass} ${args.join(" ")} timed out after ${String(timeoutMs)} ms; stderr: ${spawned.stderr().slice(-2_000)}`,
          ),
        );
      }, timeoutMs);
      void spawned.exited.then((code) => {
        clearTimeout(timer);
        resolve({ code, lines: spawned.lines, stderr: spawned.stderr() });
      });
    });
  }

  /** Starts the program and returns at once; stdout lines accumulate in `lines`. */
  spawn(args: readonly string[], options: JavaRunOptions = {}): SpawnedJava {
    const child = spawn(this.#java, this.commandLine(args, options.jvmArgs), {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...options.env },
    });
    const lines: string[] = [];
    let pending = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      pending += chunk;
      const complete = pending.split("\n");
      pending = complete.pop() ?? "";
      lines.push(...complete.filter((line) => line.length > 0));
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT);
    });
    const exited = new Promise<number | null>((resolve) => {
      child.once("error", (error) => {
        stderr += `\n${error.message}`;
        resolve(null);
      });
      child.once("close", (code) => {
        if (pending.length > 0) lines.push(pending);
        resolve(code);
      });
    });
    return { child, lines, exited, stderr: () => stderr };
  }

  /** Removes the classes of an uncached program. Idempotent. */
  dispose(): void {
    if (this.#temporary) fs.rmSync(this.classesDir, { recursive: true, force: true });
  }
}

function libraryClasspath(options: JavaProgramOptions): string {
  const entries = [...(options.classpath ?? [])];
  if (options.artifactSet !== undefined) entries.push(path.join(artifactSetDir(options.artifactSet), "*"));
  if (entries.length === 0) throw new Error(`${options.mainClass}: give an artifactSet or a classpath`);
  return entries.join(path.delimiter);
}

function contentHash(options: JavaProgramOptions, libraries: string): string {
  const hash = crypto.createHash("sha256").update(libraries);
  for (const source of options.sources) hash.update(fs.readFileSync(source));
  for (const [name, text] of Object.entries(options.files ?? {})) hash.update(name).update(text);
  return hash.digest("hex").slice(0, 16);
}

async function javac(options: JavaProgramOptions, libraries: string, outDir: string): Promise<void> {
  const args = ["--release", "17", "-encoding", "UTF-8", "-cp", libraries, "-d", outDir, ...options.sources];
  const { code, output } = await collect(options.javac ?? jdkTool("javac"), args);
  if (code !== 0) {
    const first = output.split("\n").find((line) => line.includes("error:")) ?? output.trim().split("\n").at(-1);
    throw new Error(`javac ${options.sources.map((s) => path.basename(s)).join(" ")} failed: ${first ?? "no output"}`);
  }
  for (const [name, text] of Object.entries(options.files ?? {})) fs.writeFileSync(path.join(outDir, name), text);
}

function collect(command: string, args: readonly string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const append = (chunk: string): void => {
      output = (output + chunk).slice(-STDERR_KEPT);
    };
    child.stdout.setEncoding("utf8").on("data", append);
    child.stderr.setEncoding("utf8").on("data", append);
    const timer = setTimeout(() => {
      append(`\n${command} killed after ${String(JAVAC_TIMEOUT_MS)} ms`);
      child.kill("SIGKILL");
    }, JAVAC_TIMEOUT_MS);
    child.once("error", (error) => resolve({ code: null, output: `${command}: ${error.message}` }));
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function jdkTool(name: "java" | "javac"): string {
  const home = process.env.JAVA_HOME;
  if (home !== undefined && home !== "") {
    const candidate = path.join(home, "bin", name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return name;
}
