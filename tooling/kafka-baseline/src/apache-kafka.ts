// Apache Kafka (the Maven kafka_2.13 jars of the "kafka" artifact set) as a KRaft single node: one JVM that is
// broker and controller, on free 127.0.0.1 ports, in a temp directory `os.tmpdir()/nereus-kafka-<random>/`
// (server.properties, data/, logs/). `kafka.tools.StorageTool format` writes the metadata directory, then
// `kafka.Kafka server.properties` runs the node with a small heap; it is ready when an ApiVersions + Metadata
// probe lists the broker. Stopping is by PID (SIGTERM, SIGKILL after a bound). The directory, with the logs, is
// removed on a clean stop and kept when start-up fails or `keep` is asked for.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { LoggedProcess, freePorts, lastMeaningfulLine, logTail, runLogged } from "./child-process.js";
import { BaselineError, reasonOf } from "./errors.js";
import { javaExecutable, kafkaJars, type KafkaJars } from "./kafka-jars.js";
import { type ProbeResult, waitForKafka } from "./kafka-probe.js";

/** Options of {@link startApacheKafka}. */
export interface ApacheKafkaOptions {
  /** JVM heap in MiB (default 512; -Xms = -Xmx). */
  readonly heapMb?: number;
  /** A second listener, SSL, on its own free port with this PEM keystore (private key in PKCS#8, then the certificate). */
  readonly sslKeystoreFile?: string;
  /** Extra or overriding server.properties entries. */
  readonly config?: Readonly<Record<string, string | number | boolean>>;
  /** Start-up deadline (default 180 s: the JVM, the format and the KRaft election on a busy 2-core machine). */
  readonly startTimeoutMs?: number;
  /** Keep the run directory after a clean stop too (also with NEREUS_KAFKA_BASELINE_KEEP=1). */
  readonly keep?: boolean;
  /** Progress lines. */
  readonly log?: (line: string) => void;
}

const LOG4J2_SERVER = [
  "status=warn",
  "appender.out.type=Console",
  "appender.out.name=out",
  "appender.out.layout.type=PatternLayout",
  "appender.out.layout.pattern=[%d] %p %m (%c)%n",
  "rootLogger.level=INFO",
  "rootLogger.appenderRef.out.ref=out",
  "logger.kafka.name=kafka",
  "logger.kafka.level=INFO",
  "logger.state.name=state.change.logger",
  "logger.state.level=WARN",
  "logger.request.name=kafka.request.logger",
  "logger.request.level=WARN",
  "",
].join("\n");

/** A random KRaft cluster id (16 bytes, URL-safe base64 without padding, not starting with "-"). */
export function randomClusterId(): string {
  for (;;) {
    const id = crypto.randomBytes(16).toString("base64url");
    if (!id.startsWith("-")) return id;
  }
}

/** Heap sizes and GC flags of the Kafka JVM (kafka-run-class.sh's G1 settings). */
function jvmFlags(heapMb: number, runDir: string): string[] {
  return [
    `-Xms${String(heapMb)}m`,
    `-Xmx${String(heapMb)}m`,
    "-XX:+UseG1GC",
    "-XX:MaxGCPauseMillis=20",
    "-XX:InitiatingHeapOccupancyPercent=35",
    "-XX:+ExplicitGCInvokesConcurrent",
    "-Djava.awt.headless=true",
    `-Dlog4j2.configurationFile=${path.join(runDir, "log4j2.properties")}`,
    `-Dkafka.logs.dir=${path.join(runDir, "logs")}`,
  ];
}

/** The server.properties entries of the PLAINTEXT listener plus an SSL one on `sslPort` with a PEM keystore. */
function sslProperties(
  keystoreFile: string,
  port: number,
  controllerPort: number,
  sslPort: number,
): Record<string, string> {
  return {
    listeners: `PLAINTEXT://127.0.0.1:${String(port)},SSL://127.0.0.1:${String(sslPort)},CONTROLLER://127.0.0.1:${String(controllerPort)}`,
    "advertised.listeners": `PLAINTEXT://127.0.0.1:${String(port)},SSL://127.0.0.1:${String(sslPort)}`,
    "listener.security.protocol.map": "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SSL:SSL",
    "ssl.keystore.type": "PEM",
    "ssl.keystore.location": keystoreFile,
    "ssl.client.auth": "none",
  };
}

/** A running Apache Kafka KRaft single node. */
export class ApacheKafka {
  readonly runDir: string;
  readonly port: number;
  readonly controllerPort: number;
  /** The SSL listener's port (with `sslKeystoreFile`). */
  readonly sslPort: number | undefined;
  readonly jars: KafkaJars;
  readonly heapMb: number;
  private proc: LoggedProcess;
  private starts = 1;
  private readonly keep: boolean;
  private readonly startTimeoutMs: number;

  private constructor(init: {
    runDir: string;
    port: number;
    controllerPort: number;
    sslPort: number | undefined;
    jars: KafkaJars;
    heapMb: number;
    proc: LoggedProcess;
    keep: boolean;
    startTimeoutMs: number;
  }) {
    this.runDir = init.runDir;
    this.port = init.port;
    this.controllerPort = init.controllerPort;
    this.sslPort = init.sslPort;
    this.jars = init.jars;
    this.heapMb = init.heapMb;
    this.proc = init.proc;
    this.keep = init.keep;
    this.startTimeoutMs = init.startTimeoutMs;
  }

  get bootstrap(): string {
    return `127.0.0.1:${String(this.port)}`;
  }

  get pid(): number {
    return this.proc.pid;
  }

  get version(): string {
    return this.jars.version;
  }

  /** The current server log (stdout + stderr of the JVM). */
  get logFile(): string {
    return this.proc.logFile;
  }

  /**
   * Formats and starts a node.
   * @throws BaselineError naming what is missing (java, mvn, jars) or why Kafka did not start, with the log path.
   */
  static async start(options: ApacheKafkaOptions = {}): Promise<ApacheKafka> {
    const log = options.log ?? (() => {});
    const jars = await kafkaJars(log);
    const java = javaExecutable();
    const heapMb = options.heapMb ?? 512;
    const startTimeoutMs = options.startTimeoutMs ?? 180_000;
    const keep = options.keep === true || process.env.NEREUS_KAFKA_BASELINE_KEEP === "1";
    const runDir = fs.mkdtempSync(path.join(os.tmpdir(), "nereus-kafka-"));
    fs.mkdirSync(path.join(runDir, "logs"));
    const [port, controllerPort, sslPort] = await freePorts(3);
    if (port === undefined || controllerPort === undefined || sslPort === undefined)
      throw new BaselineError("apache-kafka", "no free ports");
    const ssl =
      options.sslKeystoreFile === undefined
        ? undefined
        : sslProperties(options.sslKeystoreFile, port, controllerPort, sslPort);
    const properties: Record<string, string | number | boolean> = {
      "process.roles": "broker,controller",
      "node.id": 1,
      "controller.quorum.voters": `1@127.0.0.1:${String(controllerPort)}`,
      listeners: `PLAINTEXT://127.0.0.1:${String(port)},CONTROLLER://127.0.0.1:${String(controllerPort)}`,
      "advertised.listeners": `PLAINTEXT://127.0.0.1:${String(port)}`,
      "controller.listener.names": "CONTROLLER",
      "inter.broker.listener.name": "PLAINTEXT",
      "listener.security.protocol.map": "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
      "log.dirs": path.join(runDir, "data"),
      "num.partitions": 1,
      "num.network.threads": 3,
      "num.io.threads": 8,
      "auto.create.topics.enable": true,
      "offsets.topic.replication.factor": 1,
      "offsets.topic.num.partitions": 1,
      "transaction.state.log.replication.factor": 1,
      "transaction.state.log.min.isr": 1,
      "share.coordinator.state.topic.replication.factor": 1,
      "share.coordinator.state.topic.min.isr": 1,
      "group.initial.rebalance.delay.ms": 0,
      ...ssl,
      ...options.config,
    };
    fs.writeFileSync(
      path.join(runDir, "server.properties"),
      `${Object.entries(properties)
        .map(([key, value]) => `${key}=${String(value)}`)
        .join("\n")}\n`,
    );
    fs.writeFileSync(path.join(runDir, "log4j2.properties"), LOG4J2_SERVER);

    const formatLog = path.join(runDir, "logs", "format.log");
    log(`formatting a KRaft node in ${runDir} (Kafka ${jars.version})`);
    const format = await runLogged(
      java,
      [
        ...jvmFlags(256, runDir),
        "-cp",
        jars.classpath,
        "kafka.tools.StorageTool",
        "format",
        "-t",
        randomClusterId(),
        "-c",
        path.join(runDir, "server.properties"),
      ],
      { cwd: runDir, logFile: formatLog, timeoutMs: 120_000 },
    );
    if (format.code !== 0) {
      const why = format.timedOut ? "timed out" : `exit ${String(format.code ?? format.signal)}`;
      throw new BaselineError(
        "apache-kafka",
        `kafka.tools.StorageTool format failed (${why}): ${lastMeaningfulLine(logTail(formatLog, 60)) ?? "no output"} (log: ${formatLog})`,
      );
    }
    const proc = await ApacheKafka.launch(java, jars, heapMb, runDir, 1);
    const kafka = new ApacheKafka({
      runDir,
      port,
      controllerPort,
      sslPort: ssl === undefined ? undefined : sslPort,
      jars,
      heapMb,
      proc,
      keep,
      startTimeoutMs,
    });
    await kafka.waitReady();
    log(`Apache Kafka ${jars.version} serving on ${kafka.bootstrap} (pid ${String(kafka.pid)})`);
    return kafka;
  }

  private static async launch(
    java: string,
    jars: KafkaJars,
    heapMb: number,
    runDir: string,
    start: number,
  ): Promise<LoggedProcess> {
    const logFile = path.join(runDir, "logs", start === 1 ? "server.log" : `server.${String(start)}.log`);
    try {
      return await LoggedProcess.spawn(
        java,
        [...jvmFlags(heapMb, runDir), "-cp", jars.classpath, "kafka.Kafka", path.join(runDir, "server.properties")],
        { cwd: runDir, logFile },
      );
    } catch (error) {
      throw new BaselineError("apache-kafka", `cannot run ${java}: ${reasonOf(error)}`, { cause: error });
    }
  }

  private async waitReady(): Promise<ProbeResult> {
    try {
      return await waitForKafka("127.0.0.1", this.port, {
        timeoutMs: this.startTimeoutMs,
        isDead: () => {
          const status = this.proc.exitStatus;
          return status === undefined
            ? undefined
            : `the JVM exited (${String(status.code ?? status.signal)}) before serving`;
        },
      });
    } catch (error) {
      await this.proc.stop("SIGKILL");
      const last = lastMeaningfulLine(logTail(this.logFile, 80)) ?? "no output";
      throw new BaselineError(
        "apache-kafka",
        `Apache Kafka did not start: ${reasonOf(error)}; last log line: ${last} (log: ${this.logFile})`,
        { cause: error },
      );
    }
  }

  /** Stops the JVM by PID (SIGTERM: a controlled shutdown; SIGKILL after `timeoutMs`), keeping the data. */
  async stopProcess(signal: NodeJS.Signals = "SIGTERM", timeoutMs = 30_000): Promise<void> {
    await this.proc.stop(signal, timeoutMs);
  }

  /** Restarts the node on the same ports and data (after {@link stopProcess}, or stops it first). */
  async restart(): Promise<void> {
    await this.proc.stop("SIGTERM");
    this.starts += 1;
    this.proc = await ApacheKafka.launch(javaExecutable(), this.jars, this.heapMb, this.runDir, this.starts);
    await this.waitReady();
  }

  /** Stops the node and removes its directory (kept with `keep`, NEREUS_KAFKA_BASELINE_KEEP=1 or `keepDir`). */
  async stop(keepDir = false): Promise<void> {
    await this.proc.stop("SIGTERM");
    if (!keepDir && !this.keep) fs.rmSync(this.runDir, { recursive: true, force: true });
  }
}

/** Starts an Apache Kafka KRaft single node; see {@link ApacheKafka.start}. */
export function startApacheKafka(options: ApacheKafkaOptions = {}): Promise<ApacheKafka> {
  return ApacheKafka.start(options);
}
