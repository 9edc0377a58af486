// The Nereus broker (apps/broker) as a child process with its Pulsar listener on, on the embedded default (SQLite
// metadata + filesystem objects, fsync before acknowledging) in a temp data directory: kafka-baseline's launcher
// with `--pulsar-port` on a free port. Ready when the broker is up and a producer can be created over the Pulsar
// binary protocol. Its admin server (the Pulsar admin REST API where the broker serves it) is on `adminUrl`.
import { type BrokerEntry, type NereusBroker, freePorts, startNereusBroker } from "@nereus/kafka-baseline";
import { PulsarBaselineError, reasonOf } from "./errors.js";
import { type PulsarProbeResult, waitForPulsar } from "./pulsar-probe.js";

/** Options of {@link startNereusPulsar}. */
export interface NereusPulsarOptions {
  /** From the TypeScript sources (default) or the built `dist/main.js`. */
  readonly entry?: BrokerEntry;
  /** Extra broker flags (`--name=value`). */
  readonly brokerFlags?: readonly string[];
  /** Extra node flags (profiling). */
  readonly nodeFlags?: readonly string[];
  readonly startTimeoutMs?: number;
  /** Keep the run directory (data and log) after stopping. */
  readonly keep?: boolean;
  readonly log?: (line: string) => void;
}

/** A running Nereus broker serving Pulsar. */
export class NereusPulsar {
  readonly broker: NereusBroker;
  readonly pulsarPort: number;
  readonly probe: PulsarProbeResult;

  private constructor(broker: NereusBroker, pulsarPort: number, probe: PulsarProbeResult) {
    this.broker = broker;
    this.pulsarPort = pulsarPort;
    this.probe = probe;
  }

  /** `pulsar://127.0.0.1:<port>`. */
  get serviceUrl(): string {
    return `pulsar://127.0.0.1:${String(this.pulsarPort)}`;
  }

  /** `http://127.0.0.1:<admin port>`. */
  get adminUrl(): string {
    return `http://127.0.0.1:${String(this.broker.adminPort)}`;
  }

  get pid(): number {
    return this.broker.pid;
  }

  get logFile(): string {
    return this.broker.logFile;
  }

  /**
   * Starts the broker with the Pulsar listener.
   * @throws PulsarBaselineError when the broker does not start or no producer can be created (with its log path).
   */
  static async start(options: NereusPulsarOptions = {}): Promise<NereusPulsar> {
    const [pulsarPort] = await freePorts(1);
    if (pulsarPort === undefined) throw new PulsarBaselineError("nereus-broker", "no free port");
    const startTimeoutMs = options.startTimeoutMs ?? 120_000;
    const started = Date.now();
    const broker = await startNereusBroker({
      entry: options.entry ?? "source",
      args: ["--pulsar-port", String(pulsarPort), ...(options.brokerFlags ?? [])],
      nodeFlags: options.nodeFlags ?? [],
      startTimeoutMs,
      keep: options.keep === true || process.env.NEREUS_PULSAR_BASELINE_KEEP === "1",
      ...(options.log === undefined ? {} : { log: options.log }),
    });
    try {
      const probe = await waitForPulsar("127.0.0.1", pulsarPort, {
        timeoutMs: Math.max(5_000, startTimeoutMs - (Date.now() - started)),
      });
      options.log?.(`Nereus serving Pulsar on pulsar://127.0.0.1:${String(pulsarPort)} (pid ${String(broker.pid)})`);
      return new NereusPulsar(broker, pulsarPort, probe);
    } catch (error) {
      await broker.stop(true);
      throw new PulsarBaselineError(
        "nereus-broker",
        `the Pulsar listener took no producer: ${reasonOf(error)} (log: ${broker.logFile})`,
        { cause: error },
      );
    }
  }

  /** Stops the broker by PID and removes its run directory unless kept. */
  async stop(keepDir = false): Promise<void> {
    await this.broker.stop(keepDir);
  }
}

/** Starts a Nereus broker serving Pulsar; see {@link NereusPulsar.start}. */
export function startNereusPulsar(options: NereusPulsarOptions = {}): Promise<NereusPulsar> {
  return NereusPulsar.start(options);
}
