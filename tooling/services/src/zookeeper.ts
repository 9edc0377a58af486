// ZooKeeper 3.8 standalone from Debian's jars (/usr/share/java/zookeeper.jar + slf4j-simple) on 127.0.0.1,
// admin server off, fresh data dir; ready when the `srvr` four-letter word reports `Mode: standalone`.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import type { ZooKeeperDescription } from "./description.js";
import type { ProcessRecord } from "./managed-process.js";
import { LOOPBACK } from "./ports.js";
import { debianFile, ensureJava, ensureRequirements, type PrerequisiteContext } from "./prerequisites.js";
import { jvmFlags, logFile, runSubdir, spawnInRun, waitForReady, type RunContext } from "./run-context.js";

/** Options for ZooKeeper. */
export interface ZooKeeperOptions {
  /** Client port (default: a free port). A taken port is a start error. */
  readonly port?: number;
  /** ZooKeeper tick (ms, default 1000); the minimum session timeout is two ticks. */
  readonly tickTimeMs?: number;
  /** Readiness deadline (default 30 s). */
  readonly readyTimeoutMs?: number;
}

const ZOOKEEPER_JAR = "/usr/share/java/zookeeper.jar";
const SLF4J_SIMPLE_JAR = "/usr/share/java/slf4j-simple.jar";

/** Checks (and installs when allowed) what ZooKeeper needs; returns java and the classpath. */
export async function zookeeperPrerequisites(ctx: PrerequisiteContext): Promise<{ java: string; classpath: string }> {
  const java = await ensureJava("zookeeper", ctx);
  const jars = await ensureRequirements(
    "zookeeper",
    [debianFile(ZOOKEEPER_JAR, "zookeeper"), debianFile(SLF4J_SIMPLE_JAR, "libslf4j-java")],
    ctx,
  );
  return { java, classpath: jars.join(":") };
}

/**
 * Sends a four-letter word (e.g. "srvr", "ruok") to ZooKeeper on 127.0.0.1:`port` and returns the reply.
 * Bounded by `timeoutMs`; rejects on connection errors.
 */
export function fourLetterWord(port: number, word: string, timeoutMs = 2000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: LOOPBACK, port });
    let reply = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer to ${word} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("connect", () => socket.write(word));
    socket.on("data", (chunk) => {
      reply += chunk.toString("utf8");
    });
    socket.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(reply);
    });
  });
}

/** Starts ZooKeeper on `port` and waits until it serves as a standalone server. */
export async function startZooKeeper(
  ctx: RunContext,
  prereq: { java: string; classpath: string },
  port: number,
  options: ZooKeeperOptions,
): Promise<{ description: ZooKeeperDescription; process: ProcessRecord }> {
  const dir = runSubdir(ctx, "zookeeper");
  const cfg = path.join(dir, "zoo.cfg");
  fs.writeFileSync(
    cfg,
    [
      `tickTime=${options.tickTimeMs ?? 1000}`,
      `dataDir=${runSubdir(ctx, "zookeeper", "data")}`,
      `clientPort=${port}`,
      `clientPortAddress=${LOOPBACK}`,
      "maxClientCnxns=0",
      "admin.enableServer=false",
      "4lw.commands.whitelist=srvr,ruok,stat,mntr",
      "",
    ].join("\n"),
  );
  const proc = spawnInRun(ctx, {
    name: "zookeeper",
    command: prereq.java,
    args: [
      ...jvmFlags(ctx, 256),
      "-Dzookeeper.admin.enableServer=false",
      "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
      "-Dorg.slf4j.simpleLogger.showDateTime=true",
      "-cp",
      prereq.classpath,
      "org.apache.zookeeper.server.ZooKeeperServerMain",
      cfg,
    ],
    cwd: dir,
    logFile: logFile(ctx, "zookeeper"),
    ports: [port],
  });
  await waitForReady(
    "zookeeper",
    proc,
    `ZooKeeper srvr "Mode: standalone" on ${LOOPBACK}:${port}`,
    async () => (await fourLetterWord(port, "srvr", 1000)).includes("Mode: standalone"),
    options.readyTimeoutMs ?? 30_000,
    50,
  );
  return { description: { connectString: `${LOOPBACK}:${port}` }, process: proc.record };
}
