// Apache Pulsar standalone (the Maven pulsar-broker jars of the "pulsar" artifact set) as one JVM: broker, one
// bookie and RocksDB metadata, on free 127.0.0.1 ports, in a temp directory `os.tmpdir()/nereus-pulsar-<random>/`
// (standalone.conf, log4j2.xml, data/, logs/). Its bookie syncs the journal before acknowledging a write. Ready when
// the admin API lists the namespace public/default and a producer can be created over the binary protocol.
// Stopping is by PID (SIGTERM, SIGKILL after a bound). The directory is removed on a clean stop and kept when
// start-up fails or `keep` is asked for.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LoggedProcess, freePorts, javaExecutable, lastMeaningfulLine, logTail } from "@nereus/kafka-baseline";
import { PulsarBaselineError, reasonOf } from "./errors.js";
import { type PulsarJars, pulsarBrokerJars } from "./pulsar-jars.js";
import { type PulsarProbeResult, waitForPulsar } from "./pulsar-probe.js";
import {
  STANDALONE_MAIN_CLASS,
  type StandaloneLayout,
  log4j2Xml,
  renderProperties,
  standaloneArgs,
  standaloneJvmFlags,
  standaloneProperties,
} from "./standalone-config.js";

/** Options of {@link startApachePulsar}. */
export interface ApachePulsarOptions {
  /** JVM heap and direct memory in MiB each (default 1024, as the distribution's launcher). */
  readonly heapMb?: number;
  /** Extra or overriding standalone.conf entries. */
  readonly config?: Readonly<Record<string, string | number | boolean>>;
  /** Start-up deadline (default 180 s: a cold JVM with 327 jars on a busy 2-core machine). */
  readonly startTimeoutMs?: number;
  /** Keep the run directory after a clean stop too (also with NEREUS_PULSAR_BASELINE_KEEP=1). */
  readonly keep?: boolean;
  /** Progress lines. */
  readonly log?: (line: string) => void;
}

/** A running Apache Pulsar standalone. */
export class ApachePulsar {
  readonly layout: StandaloneLayout;
  readonly jars: PulsarJars;
  /** What the readiness probe saw (server version). */
  readonly probe: PulsarProbeResult;
  readonly #proc: LoggedProcess;
  readonly #keep: boolean;

  private constructor(
    layout: StandaloneLayout,
    jars: PulsarJars,
    proc: LoggedProcess,
    probe: PulsarProbeResult,
    keep: boolean,
  ) {
    this.layout = layout;
    this.jars = jars;
    this.#proc = proc;
    this.probe = probe;
    this.#keep = keep;
  }

  /** `pulsar://127.0.0.1:<port>`. */
  get serviceUrl(): string {
    return `pulsar://127.0.0.1:${String(this.layout.brokerPort)}`;
  }

  /** `http://127.0.0.1:<port>`: the admin REST API. */
  get adminUrl(): string {
    return `http://127.0.0.1:${String(this.layout.webPort)}`;
  }

  get pid(): number {
    return this.#proc.pid;
  }

  get version(): string {
    return this.jars.version;
  }

  get runDir(): string {
    return this.layout.runDir;
  }

  /** The broker's log (log4j2). */
  get logFile(): string {
    return path.join(this.layout.runDir, "logs", "pulsar.log");
  }

  /** The JVM's stdout and stderr. */
  get consoleFile(): string {
    return this.#proc.logFile;
  }

  /**
   * Writes the configuration and starts the standalone.
   * @throws PulsarBaselineError naming what is missing (java, jars) or why it did not start, with the log paths.
   */
  static async start(options: ApachePulsarOptions = {}): Promise<ApachePulsar> {
    const log = options.log ?? (() => {});
    const heapMb = options.heapMb ?? 1024;
    const jars = await pulsarBrokerJars(log);
    const java = javaExecutable();
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "nereus-pulsar-"));
    const logsDir = path.join(runDir, "logs");
    fs.mkdirSync(logsDir);
    const [brokerPort, webPort] = await freePorts(2);
    if (brokerPort === undefined || webPort === undefined)
      throw new PulsarBaselineError("apache-pulsar", "no free ports");
    const layout: StandaloneLayout = { brokerPort, webPort, runDir, dataDir: path.join(runDir, "data") };
    const configFile = path.join(runDir, "standalone.conf");
    const log4j2File = path.join(runDir, "log4j2.xml");
    fs.writeFileSync(configFile, renderProperties(standaloneProperties(layout, options.config)));
    fs.writeFileSync(log4j2File, log4j2Xml(path.join(logsDir, "pulsar.log")));
    const argv = [
      ...standaloneJvmFlags(heapMb, log4j2File),
      "-cp",
      jars.classpath,
      STANDALONE_MAIN_CLASS,
      ...standaloneArgs(layout, configFile),
    ];
    log(`starting Apache Pulsar ${jars.version} standalone in ${runDir}`);
    const started = Date.now();
    let proc: LoggedProcess;
    try {
      proc = await LoggedProcess.spawn(java, argv, { cwd: runDir, logFile: path.join(logsDir, "console.log") });
    } catch (error) {
      throw new PulsarBaselineError("apache-pulsar", `cannot run ${java}: ${reasonOf(error)}`, { cause: error });
    }
    const keep = options.keep === true || process.env.NEREUS_PULSAR_BASELINE_KEEP === "1";
    const probe = await waitReady(proc, layout, options.startTimeoutMs ?? 180_000);
    const pulsar = new ApachePulsar(layout, jars, proc, probe, keep);
    log(
      `Apache Pulsar ${jars.version} serving on ${pulsar.serviceUrl}, admin ${pulsar.adminUrl} (pid ${String(pulsar.pid)}, ready after ${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
    return pulsar;
  }

  /** Stops the JVM by PID (SIGTERM; SIGKILL after `timeoutMs`) and removes its directory unless kept. */
  async stop(keepDir = false, timeoutMs = 30_000): Promise<void> {
    await this.#proc.stop("SIGTERM", timeoutMs);
    if (!keepDir && !this.#keep) fs.rmSync(this.layout.runDir, { recursive: true, force: true });
  }
}

/** Waits for the namespace public/default in the admin API, then for a producer; kills the JVM on failure. */
async function waitReady(proc: LoggedProcess, layout: StandaloneLayout, timeoutMs: number): Promise<PulsarProbeResult> {
  const deadline = Date.now() + timeoutMs;
  const isDead = (): string | undefined => {
    const status = proc.exitStatus;
    return status === undefined ? undefined : `the JVM exited (${String(status.code ?? status.signal)}) before serving`;
  };
  try {
    await waitForNamespace(`http://127.0.0.1:${String(layout.webPort)}`, "public/default", deadline, isDead);
    return await waitForPulsar("127.0.0.1", layout.brokerPort, {
      timeoutMs: Math.max(1_000, deadline - Date.now()),
      isDead,
    });
  } catch (error) {
    await proc.stop("SIGKILL");
    const pulsarLog = path.join(layout.runDir, "logs", "pulsar.log");
    const last =
      lastMeaningfulLine(logTail(pulsarLog, 80)) ?? lastMeaningfulLine(logTail(proc.logFile, 40)) ?? "no output";
    throw new PulsarBaselineError(
      "apache-pulsar",
      `Apache Pulsar did not start: ${reasonOf(error)}; last log line: ${last} (logs: ${pulsarLog}, ${proc.logFile})`,
      { cause: error },
    );
  }
}

/**
 * Polls `GET /admin/v2/namespaces/<tenant>` until it lists `namespace`. The admin API answers (with an empty cluster
 * list) a moment before the standalone has created its cluster, tenant and namespace, so a 200 alone is not ready.
 */
async function waitForNamespace(
  adminUrl: string,
  namespace: string,
  deadline: number,
  isDead: () => string | undefined,
): Promise<void> {
  const tenant = namespace.split("/")[0] ?? namespace;
  let last = "no answer yet";
  for (;;) {
    const dead = isDead();
    if (dead !== undefined) throw new Error(`${dead}; admin API: ${last}`);
    if (Date.now() > deadline) throw new Error(`namespace ${namespace} not listed in time; admin API: ${last}`);
    try {
      const response = await fetch(`${adminUrl}/admin/v2/namespaces/${tenant}`, { signal: AbortSignal.timeout(5_000) });
      const body = await response.text();
      if (response.ok && (JSON.parse(body) as unknown[]).includes(namespace)) return;
      last = `HTTP ${String(response.status)} ${body.slice(0, 200)}`;
    } catch (error) {
      last = reasonOf(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Starts an Apache Pulsar standalone; see {@link ApachePulsar.start}. */
export function startApachePulsar(options: ApachePulsarOptions = {}): Promise<ApachePulsar> {
  return ApachePulsar.start(options);
}
