// The Apache Kafka jars (artifact set "kafka" of the service harness: kafka_2.13 with its runtime dependencies,
// which include kafka-clients) and the JDK tools that run and compile against them.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ensureArtifactSet } from "@nereus/test-services";
import { BaselineError, reasonOf } from "./errors.js";

/** The cached Kafka jars. */
export interface KafkaJars {
  /** Directory of every jar (classpath `<dir>/*`). */
  readonly dir: string;
  /** The Kafka version, read from the kafka-clients jar name. */
  readonly version: string;
  /** The kafka-clients jar the driver compiles against. */
  readonly clientsJar: string;
  /** `<dir>/*`. */
  readonly classpath: string;
}

let cached: Promise<KafkaJars> | undefined;

/**
 * Makes sure the "kafka" artifact set is in `.cache/maven-libs/kafka/` (mvn runs only when the pom changed) and
 * describes it.
 * @throws BaselineError naming what is missing (java, mvn, Maven Central, the kafka-clients jar).
 */
export function kafkaJars(log: (line: string) => void = () => {}): Promise<KafkaJars> {
  cached ??= resolveKafkaJars(log).catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

async function resolveKafkaJars(log: (line: string) => void): Promise<KafkaJars> {
  let dir: string;
  try {
    dir = await ensureArtifactSet("kafka", {
      env: process.env,
      autoInstall: process.env.NEREUS_SERVICES_NO_INSTALL !== "1",
      log,
    });
  } catch (error) {
    throw new BaselineError("maven", `cannot fetch the Apache Kafka jars (artifact set "kafka"): ${reasonOf(error)}`, {
      cause: error,
    });
  }
  const clients = fs
    .readdirSync(dir)
    .find((name) => /^kafka-clients-[0-9][^/]*\.jar$/.test(name) && !name.includes("-test"));
  if (clients === undefined) throw new BaselineError("maven", `no kafka-clients jar in ${dir}`);
  const version = /^kafka-clients-(.+)\.jar$/.exec(clients)?.[1] ?? "unknown";
  return { dir, version, clientsJar: path.join(dir, clients), classpath: path.join(dir, "*") };
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir === "") continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

function inJavaHome(name: string): string | undefined {
  const homes = [
    process.env.JAVA_HOME,
    "/usr/lib/jvm/java-17-openjdk-amd64",
    "/usr/lib/jvm/java-17-openjdk-arm64",
    "/usr/lib/jvm/default-java",
  ];
  for (const home of homes) {
    if (home === undefined || home === "") continue;
    const candidate = path.join(home, "bin", name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Debian package of the JDK (javac) for Java 17. */
export const JDK_PACKAGE = "openjdk-17-jdk-headless";

/** The `java` launcher (the artifact fetch has already made sure Java 17 exists). */
export function javaExecutable(): string {
  const java = inJavaHome("java") ?? onPath("java");
  if (java === undefined)
    throw new BaselineError("java", `java not found; install it with: apt-get install -y ${JDK_PACKAGE}`);
  return java;
}

/**
 * `javac` of a JDK 17+. As root (unless NEREUS_SERVICES_NO_INSTALL=1) a missing JDK is installed with apt-get.
 * @throws BaselineError("javac") naming the package to install.
 */
export function javacExecutable(log: (line: string) => void = () => {}): string {
  const found = inJavaHome("javac") ?? onPath("javac");
  if (found !== undefined) return found;
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (!root || process.env.NEREUS_SERVICES_NO_INSTALL === "1") {
    throw new BaselineError("javac", `javac (a JDK 17) not found; install it with: apt-get install -y ${JDK_PACKAGE}`);
  }
  log(`installing ${JDK_PACKAGE} (javac is missing)`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  let result = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", JDK_PACKAGE], {
    env,
    encoding: "utf8",
  });
  if (result.status !== 0) {
    spawnSync("apt-get", ["update"], { env, encoding: "utf8" });
    result = spawnSync("apt-get", ["install", "-y", "--no-install-recommends", JDK_PACKAGE], { env, encoding: "utf8" });
  }
  const installed = inJavaHome("javac") ?? onPath("javac");
  if (result.status !== 0 || installed === undefined) {
    const last = `${result.stderr ?? ""}${result.stdout ?? ""}`.trim().split("\n").at(-1) ?? "";
    throw new BaselineError("javac", `javac not found and apt-get install ${JDK_PACKAGE} failed: ${last}`);
  }
  return installed;
}
