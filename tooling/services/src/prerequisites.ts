// Prerequisites of the services: executables on PATH (etcd, java, mvn) and files from Debian packages
// (ZooKeeper's jars). Missing Debian packages are installed with apt-get when running as root and allowed;
// otherwise the failure is one line naming the missing thing and the package that provides it.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ServiceStartError } from "./errors.js";

/** How prerequisites are found and whether they may be installed. */
export interface PrerequisiteContext {
  /** Environment whose PATH is searched (and passed to apt-get / mvn). */
  readonly env: NodeJS.ProcessEnv;
  /**
   * Allow `apt-get install` when something is missing and this process is root. Off when the env has
   * `NEREUS_SERVICES_NO_INSTALL=1`.
   */
  readonly autoInstall: boolean;
  /** Progress messages (installs can take a while). */
  readonly log: (line: string) => void;
}

/** A thing a service needs and the Debian package that provides it. */
export interface Requirement {
  /** Human name for errors, e.g. "etcd binary". */
  readonly what: string;
  /** Debian package that provides it. */
  readonly debianPackage: string;
  /** Resolves the requirement: an absolute path, or undefined when missing. */
  readonly locate: (env: NodeJS.ProcessEnv) => string | undefined;
}

/** True when this process runs as root (so apt-get may be used). */
export function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

/** Whether installs are allowed by `requested` and the environment. */
export function installAllowed(requested: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (env.NEREUS_SERVICES_NO_INSTALL === "1" || env.NEREUS_SERVICES_NO_INSTALL === "true") return false;
  return requested ?? true;
}

/** Absolute path of `name` on the env's PATH, or undefined. */
function findExecutable(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** A requirement for an executable on PATH. */
export function executable(name: string, debianPackage: string): Requirement {
  return { what: `${name} (executable on PATH)`, debianPackage, locate: (env) => findExecutable(name, env) };
}

/** A requirement for a file installed by a Debian package. */
export function debianFile(file: string, debianPackage: string): Requirement {
  return { what: file, debianPackage, locate: () => (fs.existsSync(file) ? file : undefined) };
}

function runApt(args: readonly string[], env: NodeJS.ProcessEnv): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("apt-get", ["-o", "DPkg::Lock::Timeout=300", ...args], {
      env: { ...env, DEBIAN_FRONTEND: "noninteractive" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString("utf8")).slice(-8000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => child.kill("SIGKILL"), 15 * 60_000);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ ok: false, output: error.message });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, output });
    });
  });
}

function lastMeaningfulLine(output: string): string {
  const lines = output
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  return lines.find((l) => /^E:/.test(l)) ?? lines.at(-1) ?? "no output";
}

/** Installs Debian packages with apt-get (running `apt-get update` and retrying once if the first try fails). */
async function aptInstall(service: string, packages: readonly string[], ctx: PrerequisiteContext): Promise<void> {
  ctx.log(`installing Debian packages: ${packages.join(" ")}`);
  const install = ["install", "-y", "--no-install-recommends", ...packages];
  let result = await runApt(install, ctx.env);
  if (!result.ok) {
    await runApt(["update"], ctx.env);
    result = await runApt(install, ctx.env);
  }
  if (!result.ok) {
    throw new ServiceStartError(
      service,
      `apt-get install ${packages.join(" ")} failed: ${lastMeaningfulLine(result.output)}`,
    );
  }
}

/**
 * Resolves every requirement, installing the missing ones' packages in one apt-get call when allowed.
 * Returns the resolved paths in order. Throws a one-line {@link ServiceStartError} naming what is missing.
 */
export async function ensureRequirements(
  service: string,
  requirements: readonly Requirement[],
  ctx: PrerequisiteContext,
): Promise<string[]> {
  const missing = requirements.filter((r) => r.locate(ctx.env) === undefined);
  if (missing.length > 0) {
    const packages = [...new Set(missing.map((r) => r.debianPackage))];
    const names = missing.map((r) => r.what).join(", ");
    const hint = `apt-get install -y ${packages.join(" ")}`;
    if (!ctx.autoInstall) {
      throw new ServiceStartError(service, `${names} not found and auto-install is disabled; install it with: ${hint}`);
    }
    if (!isRoot()) {
      throw new ServiceStartError(
        service,
        `${names} not found and not running as root to install it; run as root: ${hint}`,
      );
    }
    await aptInstall(service, packages, ctx);
  }
  return requirements.map((r) => {
    const found = r.locate(ctx.env);
    if (found === undefined) {
      throw new ServiceStartError(
        service,
        `${r.what} still not found after installing Debian package ${r.debianPackage}`,
      );
    }
    return found;
  });
}

const javaVersionCache = new Map<string, number>();

/** Major version of the given java executable (e.g. 17), or undefined when it cannot be run. */
function javaMajorVersion(java: string): number | undefined {
  const cached = javaVersionCache.get(java);
  if (cached !== undefined) return cached;
  const result = spawnSync(java, ["-version"], { encoding: "utf8", timeout: 30_000 });
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr ?? ""}${result.stdout ?? ""}`);
  if (match === null) return undefined;
  const major = match[1] === "1" ? Number(match[2]) : Number(match[1]);
  javaVersionCache.set(java, major);
  return major;
}

/** The Debian package that provides a Java 17 runtime. */
const JAVA_PACKAGE = "openjdk-17-jre-headless";

/** Resolves `java` (installing a JRE when allowed) and checks it is Java 17 or newer. */
export async function ensureJava(service: string, ctx: PrerequisiteContext): Promise<string> {
  const [java] = await ensureRequirements(service, [executable("java", JAVA_PACKAGE)], ctx);
  if (java === undefined) throw new ServiceStartError(service, "java not found");
  const major = javaMajorVersion(java);
  if (major === undefined) throw new ServiceStartError(service, `${java} -version did not print a version`);
  if (major < 17) throw new ServiceStartError(service, `${java} is Java ${major}; Java 17 or newer is required`);
  return java;
}
