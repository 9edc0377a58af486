// The Nereus broker (apps/broker, `nereus-broker`) as a child process on the embedded default (filesystem objects +
// SQLite metadata) in a temp data directory, on ports chosen up front so a restart comes back on the same address.
// It runs from the TypeScript sources (`node --conditions=@nereus/source --import tsx src/main.ts`, so no build is
// needed and the code is current) or from the built `dist/main.js`. Ready when its "broker started" log line is
// out and the ApiVersions + Metadata probe passes. Stopping is by PID.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LoggedProcess, freePorts, lastMeaningfulLine, logTail } from "./child-process.js";
import { BaselineError, reasonOf } from "./errors.js";
import { REPO_ROOT } from "./repo-root.js";
import { waitForKafka } from "./kafka-probe.js";

/** apps/broker. */
export const BROKER_APP_DIR = path.join(REPO_ROOT, "apps", "broker");

/** How the broker is run: from its TypeScript sources (default) or from `dist/main.js` (after a build). */
export type BrokerEntry = "source" | "dist";

/** Options of {@link startNereusBroker}. */
export interface NereusBrokerOptions {
  /** Data directory (default: a new temp directory, removed by {@link NereusBroker.stop} unless kept). */
  readonly dataDir?: string;
  readonly entry?: BrokerEntry;
  /** Extra flags (e.g. `--default-profile`, `--wal-linger-ms`). */
  readonly args?: readonly string[];
  /** Extra node flags, after the broker's own (e.g. `--cpu-prof`, `--trace-gc`), for profiling runs. */
  readonly nodeFlags?: readonly string[];
  /** Initial rebalance delay of new groups (default 200 ms, as the broker's own tests use). */
  readonly groupInitialRebalanceDelayMs?: number;
  readonly startTimeoutMs?: number;
  readonly keep?: boolean;
  readonly log?: (line: string) => void;
  /** A second Kafka listener, SSL, on its own free port with these PEM files (a config file names both listeners). */
  readonly tls?: { readonly certFile: string; readonly keyFile: string };
}

/** The node flags the broker is started with (`nereusNodeFlags` of apps/broker/package.json, as `nereus-broker` and `npm start` use them). */
function brokerNodeFlags(): string[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(BROKER_APP_DIR, "package.json"), "utf8")) as {
    nereusNodeFlags?: unknown;
  };
  const flags = manifest.nereusNodeFlags ?? [];
  if (!Array.isArray(flags) || !flags.every((flag): flag is string => typeof flag === "string")) {
    throw new BaselineError("nereus-broker", "apps/broker/package.json: nereusNodeFlags must be an array of strings");
  }
  return flags;
}

function entryCommand(entry: BrokerEntry, nodeFlags: readonly string[]): string[] {
  if (entry === "dist") {
    const main = path.join(BROKER_APP_DIR, "dist", "main.js");
    if (!fs.existsSync(main))
      throw new BaselineError("nereus-broker", `${main} is missing; build it with: pnpm --filter @nereus/broker build`);
    return [...brokerNodeFlags(), ...nodeFlags, main];
  }
  const main = path.join(BROKER_APP_DIR, "src", "main.ts");
  if (!fs.existsSync(main))
    throw new BaselineError("nereus-broker", `${main} is missing (apps/broker is not in this tree)`);
  return [...brokerNodeFlags(), ...nodeFlags, "--conditions=@nereus/source", "--import", "tsx", main];
}

/**
 * The environment of a broker child: this process's, without any `NEREUS_*` variable, so that neither a stray
 * broker setting (NEREUS_KAFKA_PORT, NEREUS_CONFIG, ...) nor the test harness's variables change the broker; its
 * whole configuration is the flags.
 */
function brokerEnvironment(): NodeJS.ProcessEnv {
  const environment = { ...process.env };
  for (const name of Object.keys(environment)) if (name.startsWith("NEREUS_")) delete environment[name];
  return environment;
}

/** Writes a config file with a PLAINTEXT listener on `port` and an SSL one on `tlsPort`; returns its path. */
function listenersFile(
  runDir: string,
  port: number,
  tlsPort: number,
  tls: { readonly certFile: string; readonly keyFile: string },
): string {
  const file = path.join(runDir, "listeners.json");
  const listeners = [
    { name: "PLAINTEXT", host: "127.0.0.1", port, securityProtocol: "PLAINTEXT" },
    { name: "SSL", host: "127.0.0.1", port: tlsPort, securityProtocol: "SSL", tls },
  ];
  fs.writeFileSync(file, `${JSON.stringify({ kafka: { listeners } }, null, 2)}\n`);
  return file;
}

/** A Nereus broker child process. */
export class NereusBroker {
  readonly dataDir: string;
  readonly runDir: string;
  readonly port: number;
  readonly adminPort: number;
  /** The SSL listener's port (with `tls`). */
  readonly tlsPort: number | undefined;
  readonly entry: BrokerEntry;
  private proc: LoggedProcess;
  private starts = 1;
  private readonly argv: readonly string[];
  private readonly keep: boolean;
  private readonly startTimeoutMs: number;
  /** True when the data directory was created for this broker (inside {@link runDir}). */
  readonly ownsDataDir: boolean;

  private constructor(init: {
    dataDir: string;
    runDir: string;
    port: number;
    adminPort: number;
    tlsPort: number | undefined;
    entry: BrokerEntry;
    proc: LoggedProcess;
    argv: readonly string[];
    keep: boolean;
    startTimeoutMs: number;
    ownsDataDir: boolean;
  }) {
    this.dataDir = init.dataDir;
    this.runDir = init.runDir;
    this.port = init.port;
    this.adminPort = init.adminPort;
    this.tlsPort = init.tlsPort;
    this.entry = init.entry;
    this.proc = init.proc;
    this.argv = init.argv;
    this.keep = init.keep;
    this.startTimeoutMs = init.startTimeoutMs;
    this.ownsDataDir = init.ownsDataDir;
  }

  get bootstrap(): string {
    return `127.0.0.1:${String(this.port)}`;
  }

  get pid(): number {
    return this.proc.pid;
  }

  /** The current broker log (its JSON lines on stdout, and stderr). */
  get logFile(): string {
    return this.proc.logFile;
  }

  /** The broker's Prometheus text from `/metrics`. */
  async metrics(): Promise<string> {
    const response = await fetch(`http://127.0.0.1:${String(this.adminPort)}/metrics`);
    return response.text();
  }

  /**
   * Starts a broker.
   * @throws BaselineError when apps/broker is missing or the broker does not start (its one-line reason, the log).
   */
  static async start(options: NereusBrokerOptions = {}): Promise<NereusBroker> {
    const entry = options.entry ?? "source";
    const command = entryCommand(entry, options.nodeFlags ?? []);
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "nereus-baseline-broker-"));
    const dataDir = options.dataDir ?? path.join(runDir, "data");
    const [port, adminPort, tlsPort] = await freePorts(3);
    if (port === undefined || adminPort === undefined || tlsPort === undefined)
      throw new BaselineError("nereus-broker", "no free ports");
    const listenersConfig =
      options.tls === undefined ? [] : ["--config", listenersFile(runDir, port, tlsPort, options.tls)];
    const argv = [
      ...command,
      "--data-dir",
      dataDir,
      "--kafka-host",
      "127.0.0.1",
      "--kafka-port",
      String(port),
      "--admin-port",
      String(adminPort),
      "--group-initial-rebalance-delay-ms",
      String(options.groupInitialRebalanceDelayMs ?? 200),
      "--log-level",
      "info",
      ...listenersConfig,
      ...(options.args ?? []),
    ];
    const proc = await NereusBroker.launch(argv, runDir, 1);
    const broker = new NereusBroker({
      dataDir,
      runDir,
      port,
      adminPort,
      tlsPort: options.tls === undefined ? undefined : tlsPort,
      entry,
      proc,
      argv,
      keep: options.keep === true || process.env.NEREUS_KAFKA_BASELINE_KEEP === "1",
      startTimeoutMs: options.startTimeoutMs ?? 90_000,
      ownsDataDir: options.dataDir === undefined,
    });
    await broker.waitReady();
    options.log?.(
      `Nereus broker serving on ${broker.bootstrap} (pid ${String(broker.pid)}, ${entry}, data ${dataDir})`,
    );
    return broker;
  }

  private static async launch(argv: readonly string[], runDir: string, start: number): Promise<LoggedProcess> {
    const logFile = path.join(runDir, start === 1 ? "broker.log" : `broker.${String(start)}.log`);
    try {
      return await LoggedProcess.spawn(process.execPath, argv, {
        cwd: BROKER_APP_DIR,
        env: brokerEnvironment(),
        logFile,
      });
    } catch (error) {
      throw new BaselineError("nereus-broker", `cannot run ${process.execPath}: ${reasonOf(error)}`, { cause: error });
    }
  }

  private async waitReady(): Promise<void> {
    let started = false;
    this.proc.onStdoutLine((line) => {
      if (line.includes('"broker started"')) started = true;
    });
    try {
      const deadline = Date.now() + this.startTimeoutMs;
      while (!started) {
        const status = this.proc.exitStatus;
        if (status !== undefined) throw new Error(`it exited (${String(status.code ?? status.signal)}) before serving`);
        if (Date.now() > deadline)
          throw new Error(`no "broker started" line within ${String(this.startTimeoutMs / 1000)} s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await waitForKafka("127.0.0.1", this.port, {
        timeoutMs: Math.max(5_000, deadline - Date.now()),
        isDead: () => (this.proc.exitStatus === undefined ? undefined : "it exited while being probed"),
      });
    } catch (error) {
      await this.proc.stop("SIGKILL");
      await new Promise((resolve) => setTimeout(resolve, 50));
      const output = logTail(this.logFile, 40);
      const line =
        output.split("\n").find((l) => l.startsWith("nereus: ")) ??
        lastMeaningfulLine(output, /"level":"error"|error/i) ??
        "no output";
      throw new BaselineError(
        "nereus-broker",
        `the Nereus broker did not start: ${reasonOf(error)}; ${line} (log: ${this.logFile})`,
        { cause: error },
      );
    }
  }

  /** Sends `signal` by PID (SIGTERM: graceful shutdown; SIGKILL: a crash) and waits for the exit. */
  async stopProcess(signal: NodeJS.Signals = "SIGTERM", timeoutMs = 30_000): Promise<void> {
    await this.proc.stop(signal, timeoutMs);
  }

  /** Restarts on the same ports and data directory (stopping it first with SIGTERM if it runs). */
  async restart(): Promise<void> {
    await this.proc.stop("SIGTERM");
    this.starts += 1;
    this.proc = await NereusBroker.launch(this.argv, this.runDir, this.starts);
    await this.waitReady();
  }

  /** Stops the broker and removes its run directory (and the data directory it created) unless kept. */
  async stop(keepDir = false): Promise<void> {
    await this.proc.stop("SIGTERM");
    if (keepDir || this.keep) return;
    // An owned data directory lives inside the run directory; a given one is left alone.
    fs.rmSync(this.runDir, { recursive: true, force: true });
  }
}

/** Starts a Nereus broker child process; see {@link NereusBroker.start}. */
export function startNereusBroker(options: NereusBrokerOptions = {}): Promise<NereusBroker> {
  return NereusBroker.start(options);
}
