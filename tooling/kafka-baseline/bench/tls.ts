// `pnpm bench:tls`: what TLS costs, on Nereus and on Apache Kafka 4.1.1 in the same run. Each broker runs alone
// (Kafka first, then Nereus) with two listeners, PLAINTEXT and SSL (TLS 1.3, the same EC P-256 certificate), and the
// Java kafka-clients driver with identical settings (acks=all, idempotent, linger.ms=5, batch.size=64 KiB, no
// compression) produces --records records of --size bytes after --warmup records to another topic and reads them
// back, once over each listener (plaintext first, each on its own topics). Prints produce and consume MB/s per
// broker and transport, and the TLS/plaintext ratio of each.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import {
  type ConsumePerfResult,
  type JavaDriver,
  type ProducePerfResult,
  javaDriver,
  runDriver,
  startApacheKafka,
  startNereusBroker,
} from "../src/index.js";
import { type BenchCertificates, benchCertificates } from "../src/tls-certificates.js";

interface Settings {
  readonly records: number;
  readonly size: number;
  readonly warmup: number;
  readonly partitions: number;
  readonly only: "kafka" | "nereus" | undefined;
}

interface Figures {
  readonly produceMBps: number;
  readonly consumeMBps: number;
}

/** A broker with a PLAINTEXT and an SSL listener, and how to stop it. */
interface DualBroker {
  readonly plaintext: string;
  readonly ssl: string;
  stop(): Promise<void>;
}

const log = (line: string): void => console.log(`[bench:tls] ${line}`);

function settingsOf(argv: readonly string[]): Settings {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      records: { type: "string", default: "200000" },
      size: { type: "string", default: "1024" },
      warmup: { type: "string", default: "100000" },
      partitions: { type: "string", default: "1" },
      only: { type: "string" },
    },
    strict: true,
  });
  const count = (name: string, text: string): number => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got ${text}`);
    return value;
  };
  if (values.only !== undefined && values.only !== "kafka" && values.only !== "nereus")
    throw new Error(`--only must be kafka or nereus, got ${values.only}`);
  return {
    records: count("records", values.records),
    size: count("size", values.size),
    warmup: count("warmup", values.warmup),
    partitions: count("partitions", values.partitions),
    only: values.only as Settings["only"],
  };
}

/** Produce then consume over one listener; `props` are the client's TLS settings (none for plaintext). */
async function measure(
  driver: JavaDriver,
  admin: string,
  bootstrap: string,
  topic: string,
  settings: Settings,
  props: Readonly<Record<string, string>>,
): Promise<Figures> {
  for (const name of [topic, `${topic}-warmup`])
    await runDriver(driver, "create-topic", { bootstrap: admin, topic: name, partitions: settings.partitions });
  const produced = await runDriver<ProducePerfResult>(
    driver,
    "produce-perf",
    { bootstrap, topic, records: settings.records, size: settings.size, warmup: settings.warmup },
    { timeoutMs: 900_000, props },
  );
  if (produced.errors > 0) throw new Error(`${topic}: ${String(produced.errors)} send errors: ${produced.firstError}`);
  const consumed = await runDriver<ConsumePerfResult>(
    driver,
    "consume-perf",
    {
      bootstrap,
      topic,
      records: settings.records,
      "timeout-ms": 600_000,
      warmup: settings.warmup,
      "warmup-topic": `${topic}-warmup`,
    },
    { timeoutMs: 900_000, props },
  );
  if (consumed.timedOut) throw new Error(`${topic}: read ${String(consumed.records)} of ${String(settings.records)}`);
  return { produceMBps: produced.mbPerSec, consumeMBps: consumed.mbPerSec };
}

async function startDual(name: "kafka" | "nereus", certs: BenchCertificates): Promise<DualBroker> {
  if (name === "kafka") {
    const kafka = await startApacheKafka({ sslKeystoreFile: certs.keystoreFile, log });
    return {
      plaintext: kafka.bootstrap,
      ssl: `127.0.0.1:${String(kafka.sslPort)}`,
      stop: () => kafka.stop(),
    };
  }
  const nereus = await startNereusBroker({ tls: { certFile: certs.certFile, keyFile: certs.keyFile }, log });
  return {
    plaintext: nereus.bootstrap,
    ssl: `127.0.0.1:${String(nereus.tlsPort)}`,
    stop: () => nereus.stop(),
  };
}

async function main(): Promise<void> {
  const settings = settingsOf(process.argv.slice(2));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nereus-bench-tls-"));
  try {
    const certs = await benchCertificates(dir);
    const driver = await javaDriver(log);
    const rows: string[] = [];
    for (const name of ["kafka", "nereus"] as const) {
      if (settings.only !== undefined && settings.only !== name) continue;
      const broker = await startDual(name, certs);
      try {
        const plain = await measure(driver, broker.plaintext, broker.plaintext, "plain", settings, {});
        log(
          `${name} PLAINTEXT: produce ${plain.produceMBps.toFixed(2)} MB/s, consume ${plain.consumeMBps.toFixed(2)} MB/s`,
        );
        const tls = await measure(driver, broker.plaintext, broker.ssl, "tls", settings, certs.clientProps);
        log(`${name} SSL: produce ${tls.produceMBps.toFixed(2)} MB/s, consume ${tls.consumeMBps.toFixed(2)} MB/s`);
        rows.push(
          `| ${name} | ${plain.produceMBps.toFixed(2)} | ${tls.produceMBps.toFixed(2)} | ${(tls.produceMBps / plain.produceMBps).toFixed(2)} | ` +
            `${plain.consumeMBps.toFixed(2)} | ${tls.consumeMBps.toFixed(2)} | ${(tls.consumeMBps / plain.consumeMBps).toFixed(2)} |`,
        );
      } finally {
        await broker.stop();
      }
    }
    console.log(
      [
        `${String(settings.records)} records x ${String(settings.size)} B, ${String(settings.partitions)} partition(s), warm-up ${String(settings.warmup)}`,
        "| broker | produce plain MB/s | produce TLS MB/s | TLS/plain | consume plain MB/s | consume TLS MB/s | TLS/plain |",
        "|---|---|---|---|---|---|---|",
        ...rows,
      ].join("\n"),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
