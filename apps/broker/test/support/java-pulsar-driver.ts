// The Java Pulsar client driver (clients/JavaPulsarClients.java) for integration tests: compiled once per test file
// with javac against the harness's "pulsar-client" Maven set, run per command with a deadline (or spawned, its
// lines read while it runs), and its fact lines parsed: ACK per acknowledged send, RECV per received message.
import type { JavaProgram, SpawnedJava } from "@nereus/test-services";
import { DRIVER_JVM_ARGS, compileJavaClient, runJavaClient } from "./java-client.js";

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
export type SpawnedDriver = SpawnedJava;

/** The compiled driver. */
export class JavaPulsarDriver {
  readonly #program: JavaProgram;

  private constructor(program: JavaProgram) {
    this.#program = program;
  }

  /** Compiles the driver (the "pulsar-client" artifact set must be installed). */
  static async compile(): Promise<JavaPulsarDriver> {
    return new JavaPulsarDriver(await compileJavaClient("pulsar-client", "JavaPulsarClients"));
  }

  /** Runs `command`; its stdout lines. Throws when it fails or outlives `timeoutMs` (the driver's own deadline is 5 s less). */
  run(command: string, options: DriverOptions, timeoutMs = 120_000): Promise<string[]> {
    return runJavaClient(this.#program, this.#args(command, options, timeoutMs - 5_000), timeoutMs);
  }

  /** Starts `command` and returns at once; the driver ends itself after `timeoutMs`. */
  spawn(command: string, options: DriverOptions, timeoutMs = 120_000): SpawnedDriver {
    return this.#program.spawn(this.#args(command, options, timeoutMs), { jvmArgs: DRIVER_JVM_ARGS });
  }

  dispose(): void {
    this.#program.dispose();
  }

  #args(command: string, options: DriverOptions, timeoutMs: number): string[] {
    return [
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
