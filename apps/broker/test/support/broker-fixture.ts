// Starting brokers for the integration tests: in-process (startBroker with a captured logger) or as a child
// process (`node --import tsx src/main.ts`, the same entry as `nereus`, so SIGKILL hits the broker
// itself), on the embedded default in a temp directory or on the shared etcd + s3proxy with a fresh cluster name
// and key prefix per test. Ports are allocated up front so a restarted broker comes back on the same address.
// Data and config directories come from `tempDir` (./temp-dirs.ts): removed when the test file is done.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { loadServices } from "@nereus/test-services";
import { tempDir } from "./temp-dirs.js";
import {
  BROKER_SETTINGS,
  BrokerConfigSchema,
  type BrokerConfigInput,
  PinoBrokerLogger,
  type RunningBroker,
  startBroker,
} from "../../src/index.js";

/** The test process's environment without broker settings, so a stray NEREUS_KAFKA_PORT cannot change a test. */
function cleanEnvironment(): NodeJS.ProcessEnv {
  const environment = { ...process.env };
  for (const setting of BROKER_SETTINGS) delete environment[setting.env];
  delete environment.NEREUS_CONFIG;
  return environment;
}

export const APP_DIR = path.resolve(import.meta.dirname, "../..");

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

export { tempDir };

/** Where a test's broker keeps its data. */
export type StorageKind = "embedded" | "cluster";

/** Configuration of a test broker (ports 0 unless given, Pulsar's too; group rebalances without the 3 s initial delay). */
export function testConfig(
  kind: StorageKind,
  options: { dataDir?: string; cluster?: string; kafkaPort?: number; overrides?: BrokerConfigInput } = {},
): BrokerConfigInput {
  const cluster = options.cluster ?? `t${randomBytes(5).toString("hex")}`;
  const base: BrokerConfigInput = {
    dataDir: options.dataDir ?? tempDir("broker"),
    cluster,
    kafka: { port: options.kafkaPort ?? 0 },
    pulsar: { port: 0 },
    admin: { port: 0 },
    groups: { initialRebalanceDelayMs: 200 },
    log: { level: "warn" },
  };
  if (kind === "cluster") {
    const services = loadServices();
    base.storage = {
      metadata: { kind: "etcd", endpoints: [services.etcd.endpoint] },
      objects: {
        kind: "s3",
        endpoint: services.s3.endpoint,
        region: services.s3.region,
        bucket: services.s3.bucket,
        accessKeyId: services.s3.accessKeyId,
        secretAccessKey: services.s3.secretAccessKey,
        forcePathStyle: true,
        keyPrefix: `${cluster}/`,
      },
    };
  }
  return merge(base, options.overrides ?? {});
}

function merge<T extends object>(base: T, overrides: object): T {
  const result = { ...base } as Record<string, unknown>;
  for (const [key, value] of Object.entries(overrides)) {
    const current = result[key];
    result[key] =
      typeof value === "object" &&
      value !== null &&
      !Array.isArray(value) &&
      typeof current === "object" &&
      current !== null
        ? merge(current as object, value as object)
        : value;
  }
  return result as T;
}

/** A broker running in this process, with its log lines. */
export interface InProcessBroker {
  readonly broker: RunningBroker;
  readonly bootstrap: string;
  readonly logs: string[];
  readonly config: BrokerConfigInput;
}

export async function startInProcess(config: BrokerConfigInput): Promise<InProcessBroker> {
  const logs: string[] = [];
  const parsed = BrokerConfigSchema.parse(config);
  const broker = await startBroker(parsed, {
    logger: new PinoBrokerLogger({ level: parsed.log.level, sink: { write: (line) => logs.push(line) } }),
  });
  return { broker, bootstrap: `127.0.0.1:${String(broker.kafkaPort)}`, logs, config };
}

/** A broker child process. */
export class BrokerProcess {
  readonly child: ChildProcess;
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(child: ChildProcess) {
    this.child = child;
    this.exited = new Promise((resolve) => child.once("close", (code, signal) => resolve({ code, signal })));
    let pending = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      this.stdout.push(...lines);
    });
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => this.stderr.push(chunk));
  }

  /**
   * Spawns `nereus` with `args` from TypeScript sources; `wrapper` is a command that runs it (e.g. `unshare --pid
   * --fork`), in which case `pid` is the wrapper's.
   */
  static spawn(
    args: readonly string[],
    env: Readonly<Record<string, string>> = {},
    wrapper: readonly string[] = [],
  ): BrokerProcess {
    const command = [process.execPath, "--conditions=@nereus/source", "--import", "tsx", "src/main.ts", ...args];
    const [executable, ...rest] = [...wrapper, ...command];
    const child = spawn(executable!, rest, {
      cwd: APP_DIR,
      env: { ...cleanEnvironment(), ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    return new BrokerProcess(child);
  }

  /** Spawns a broker for `config` (written as flags) and waits until it serves. */
  static async start(config: BrokerConfigInput, configFile: string): Promise<BrokerProcess> {
    const { writeFileSync } = await import("node:fs");
    writeFileSync(configFile, JSON.stringify(config));
    const broker = BrokerProcess.spawn(["--config", configFile, "--log-level", "info"]);
    await broker.ready();
    return broker;
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error("broker process has no pid");
    return this.child.pid;
  }

  /** Resolves with the "broker started" log fields, or rejects with stderr when the process exits first. */
  async ready(timeoutMs = 60_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const line of this.stdout) {
        if (!line.includes('"broker started"')) continue;
        return JSON.parse(line) as Record<string, unknown>;
      }
      if (this.child.exitCode !== null || this.child.signalCode !== null) {
        throw new Error(
          `broker exited (${String(this.child.exitCode ?? this.child.signalCode)}) before serving: ${this.stderr.join("").trim()}`,
        );
      }
      if (Date.now() > deadline)
        throw new Error(`broker did not start within ${String(timeoutMs)} ms: ${this.stderr.join("")}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Sends `signal` to this broker's process (by pid) and waits for it to exit. */
  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) process.kill(this.pid, signal);
    return this.exited;
  }
}
