// The Java Pulsar client driver (clients/JavaPulsarClients.java) for integration tests: compiled once per test file
// with javac against the harness's "pulsar-client" Maven set, run per command with a deadline (or spawned, its
// lines read while it runs), and its fact lines parsed: ACK per acknowledged send, RECV per received message.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { artifactSetDir, ensureArtifactSet } from "@nereus/test-services";
import { runCommand } from "./run-command.js";

/** Driver options: key=value arguments. */
export type DriverOptions = Readonly<Record<string, string | number | boolean>>;

/** An acknowledged send. */
export interface SentMessage {
  readonly index: number;
  readonly messageId: string;
  readonly partition: number;
  readonly key: string;
  readonly sha: string;
}

/** A received message; `verdict` is what the consumer did with it. */
export interface ReceivedMessage extends SentMessage {
  readonly consumer: string;
  readonly redeliveryCount: number;
  readonly verdict: "ack" | "nack" | "keep";
  readonly publishTime: number;
}

/** The ACK lines of a produce run. */
export function sentMessages(lines: readonly string[]): SentMessage[] {
  return lines
    .filter((line) => line.startsWith("ACK "))
    .map((line) => {
      const [, index, messageId, key, sha] = line.split(" ");
      return { index: Number(index), messageId: messageId!, partition: partitionOf(messageId!), key: key!, sha: sha! };
    });
}

/** The RECV lines of a consume or seek run, in the order the driver printed them. */
export function receivedMessages(lines: readonly string[]): ReceivedMessage[] {
  return lines
    .filter((line) => line.startsWith("RECV "))
    .map((line) => {
      const [, consumer, index, messageId, key, sha, redeliveryCount, verdict, publishTime] = line.split(" ");
      return {
        consumer: consumer!,
        index: Number(index),
        messageId: messageId!,
        partition: partitionOf(messageId!),
        key: key!,
        sha: sha!,
        redeliveryCount: Number(redeliveryCount),
        verdict: verdict as ReceivedMessage["verdict"],
        publishTime: Number(publishTime),
      };
    });
}

function partitionOf(messageId: string): number {
  return Number(messageId.split(":")[2]);
}

/** A driver process started with {@link JavaPulsarDriver.spawn}. */
export interface SpawnedDriver {
  readonly child: ChildProcess;
  /** Complete stdout lines so far. */
  readonly lines: string[];
  /** Resolves with the exit code once the process ended. */
  readonly exited: Promise<number | null>;
  stderr(): string;
}

/** The compiled driver. */
export class JavaPulsarDriver {
  readonly #classes: string;
  readonly #classpath: string;

  private constructor(classes: string, classpath: string) {
    this.#classes = classes;
    this.#classpath = classpath;
  }

  /** Compiles the driver (the "pulsar-client" artifact set must be installed). */
  static async compile(): Promise<JavaPulsarDriver> {
    await ensureArtifactSet("pulsar-client", { env: process.env, autoInstall: false, log: () => undefined });
    const libs = path.join(artifactSetDir("pulsar-client"), "*");
    const classes = mkdtempSync(path.join(os.tmpdir(), "nereus-java-pulsar-"));
    const source = path.join(import.meta.dirname, "..", "clients", "JavaPulsarClients.java");
    const compiled = await runCommand("javac", ["-cp", libs, "-d", classes, source], { timeoutMs: 120_000 });
    if (compiled.code !== 0) throw new Error(`javac failed: ${compiled.stderr}`);
    return new JavaPulsarDriver(classes, `${classes}${path.delimiter}${libs}`);
  }

  /** Runs `command`; its stdout lines. Throws when it fails or outlives `timeoutMs` (the driver's own deadline is 5 s less). */
  async run(command: string, options: DriverOptions, timeoutMs = 120_000): Promise<string[]> {
    const result = await runCommand("java", this.#args(command, options, timeoutMs - 5_000), {
      timeoutMs,
    });
    const stdout = result.stdout.toString("utf8");
    if (result.code !== 0) {
      throw new Error(
        `JavaPulsarClients ${command} failed (${String(result.code)}): ${stdout.slice(-2_000)}\n${result.stderr.slice(-6_000)}`,
      );
    }
    return stdout.split("\n").filter((line) => line.length > 0);
  }

  /** Starts `command` and returns at once; the driver ends itself after `timeoutMs`. */
  spawn(command: string, options: DriverOptions, timeoutMs = 120_000): SpawnedDriver {
    const child = spawn("java", this.#args(command, options, timeoutMs), { stdio: ["ignore", "pipe", "pipe"] });
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
      stderr = (stderr + chunk).slice(-20_000);
    });
    const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
    return { child, lines, exited, stderr: () => stderr };
  }

  dispose(): void {
    rmSync(this.#classes, { recursive: true, force: true });
  }

  #args(command: string, options: DriverOptions, timeoutMs: number): string[] {
    return [
      "-XX:TieredStopAtLevel=1",
      "-Xshare:auto",
      "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
      "-cp",
      this.#classpath,
      "JavaPulsarClients",
      command,
      `timeoutMs=${String(timeoutMs)}`,
      ...Object.entries(options).map(([key, value]) => `${key}=${String(value)}`),
    ];
  }
}

/** Creates the partitioned topic `topic` (persistent://public/default/<name>) through the admin API. */
export async function createPartitionedTopic(adminPort: number, topic: string, partitions: number): Promise<void> {
  const name = topic.replace(/^persistent:\/\//, "");
  const response = await fetch(`http://127.0.0.1:${String(adminPort)}/admin/v2/persistent/${name}/partitions`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: String(partitions),
  });
  if (response.status !== 204) {
    throw new Error(`creating ${topic}: HTTP ${String(response.status)} ${await response.text()}`);
  }
}
