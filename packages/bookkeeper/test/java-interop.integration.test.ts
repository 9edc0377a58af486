// Interoperability with BookKeeper's own Java client (4.17, from the harness's Maven artifact set): ledgers this
// client writes are read — and recovered — by Java, and ledgers Java writes are read and recovered here. The Java
// driver (test/interop/BookKeeperInterop.java) is compiled with javac into a temp dir for this run only.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { ErrorCode, fromHex, toHex } from "@nereus/core";
import { artifactSetDir, loadServices } from "@nereus/test-services";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBookKeeperClient } from "../src/client/bookkeeper-client.js";
import type { DigestType } from "../src/digest/digest-type.js";

const run = promisify(execFile);
const services = loadServices();
const client = createBookKeeperClient({
  zooKeeperConnectString: services.zookeeper.connectString,
  ledgersRoot: services.bookkeeper.zkLedgersRoot,
});
const PASSWORD = "interop";
const libs = path.join(artifactSetDir("bookkeeper"), "*");
const classes = fs.mkdtempSync(path.join(os.tmpdir(), "nereus-bk-interop-"));
const JVM_FLAGS = [
  "-Xmx256m",
  "-XX:+UseSerialGC",
  "-XX:TieredStopAtLevel=1",
  "--add-opens=java.base/java.nio=ALL-UNNAMED",
  "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED",
  "-Dio.netty.tryReflectionSetAccessible=true",
  // The client extracts BookKeeper's native I/O library into its temp dir: keep that inside `classes` (removed below).
  `-Djava.io.tmpdir=${classes}`,
];

interface JavaLedger {
  lac: number;
  closed: boolean;
  length: number;
  entries: Map<number, string>;
}

/** Runs the Java driver and parses its "ledger …" / "entry …" lines by ledger id. */
async function java(args: readonly string[]): Promise<Map<bigint, JavaLedger>> {
  const { stdout } = await run(
    "java",
    [...JVM_FLAGS, "-cp", `${classes}${path.delimiter}${libs}`, "BookKeeperInterop", ...args],
    { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 },
  );
  const ledgers = new Map<bigint, JavaLedger>();
  const ledgerOf = (id: bigint) => {
    let ledger = ledgers.get(id);
    if (ledger === undefined) {
      ledger = { lac: Number.NaN, closed: false, length: Number.NaN, entries: new Map() };
      ledgers.set(id, ledger);
    }
    return ledger;
  };
  for (const line of stdout.split("\n")) {
    const described = /^ledger (\d+) lac=(-?\d+) closed=(true|false) length=(\d+)$/.exec(line);
    if (described !== null)
      Object.assign(ledgerOf(BigInt(described[1] ?? "")), {
        lac: Number(described[2]),
        closed: described[3] === "true",
        length: Number(described[4]),
      });
    const entry = /^entry (\d+) (\d+) ([0-9a-f]*)$/.exec(line);
    if (entry !== null) ledgerOf(BigInt(entry[1] ?? "")).entries.set(Number(entry[2]), entry[3] ?? "");
  }
  if (!stdout.includes("done")) throw new Error(`Java interop driver did not finish:\n${stdout}`);
  return ledgers;
}

function payloadOf(entryId: number): Uint8Array {
  const size = [0, 1, 7, 1024, 65_536, 300][entryId % 6] ?? 0;
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) out[i] = (entryId * 131 + i * 17) & 0xff;
  return out;
}

beforeAll(async () => {
  await run(
    "javac",
    ["-cp", libs, "-d", classes, path.join(import.meta.dirname, "interop", "BookKeeperInterop.java")],
    { timeout: 120_000 },
  );
}, 180_000);

afterAll(async () => {
  await client.close();
  fs.rmSync(classes, { recursive: true, force: true });
});

describe("interop with BookKeeper's Java client", () => {
  it("Java reads ledgers written here, byte for byte, for every digest type and quorum shape", async () => {
    const shapes: ReadonlyArray<{
      digestType: DigestType;
      ensembleSize: number;
      writeQuorumSize: number;
      ackQuorumSize: number;
      entries: number;
    }> = [
      { digestType: "CRC32C", ensembleSize: 3, writeQuorumSize: 2, ackQuorumSize: 2, entries: 40 },
      { digestType: "CRC32C", ensembleSize: 3, writeQuorumSize: 3, ackQuorumSize: 3, entries: 12 },
      { digestType: "HMAC", ensembleSize: 3, writeQuorumSize: 2, ackQuorumSize: 2, entries: 12 },
      { digestType: "CRC32", ensembleSize: 2, writeQuorumSize: 2, ackQuorumSize: 1, entries: 12 },
      { digestType: "DUMMY", ensembleSize: 3, writeQuorumSize: 2, ackQuorumSize: 2, entries: 6 },
    ];
    const written: Array<{ ledgerId: bigint; payloads: Uint8Array[] }> = [];
    for (const { entries, ...shape } of shapes) {
      const handle = await client.createLedger({ ...shape, password: PASSWORD });
      const payloads = Array.from({ length: entries }, (_, entryId) => payloadOf(entryId));
      await Promise.all(payloads.map((payload) => handle.addEntry(payload)));
      await handle.close();
      written.push({ ledgerId: handle.ledgerId, payloads });
    }
    const seen = await java([
      "read",
      services.bookkeeper.metadataServiceUri,
      PASSWORD,
      "false",
      ...written.map((ledger) => String(ledger.ledgerId)),
    ]);
    for (const { ledgerId, payloads } of written) {
      const ledger = seen.get(ledgerId);
      expect(ledger).toMatchObject({
        lac: payloads.length - 1,
        closed: true,
        length: payloads.reduce((sum, payload) => sum + payload.length, 0),
      });
      expect([...(ledger?.entries.keys() ?? [])]).toEqual(payloads.map((_, entryId) => entryId));
      payloads.forEach((payload, entryId) => expect(ledger?.entries.get(entryId)).toBe(toHex(payload)));
    }
  });

  it("Java recovery-opens a ledger this client is still writing: fences it and recovers every confirmed entry", async () => {
    const writer = await client.createLedger({ password: PASSWORD });
    const payloads = Array.from({ length: 10 }, (_, entryId) => payloadOf(entryId + 3));
    for (const payload of payloads) await writer.addEntry(payload);
    const seen = (
      await java(["read", services.bookkeeper.metadataServiceUri, PASSWORD, "true", String(writer.ledgerId)])
    ).get(writer.ledgerId);
    expect(seen).toMatchObject({ lac: 9, closed: true });
    payloads.forEach((payload, entryId) => expect(seen?.entries.get(entryId)).toBe(toHex(payload)));
    await expect(writer.addEntry(payloadOf(0))).rejects.toMatchObject({ code: ErrorCode.FENCED_APPEND });
    expect((await client.getLedgerMetadata(writer.ledgerId))?.metadata).toMatchObject({
      state: "CLOSED",
      lastEntryId: 9,
    });
  });

  it.each([
    { digest: "CRC32C", quorums: ["3", "2", "2"] },
    { digest: "MAC", quorums: ["3", "3", "3"] },
  ])("this client reads a ledger Java wrote with $digest and quorums $quorums", async ({ digest, quorums }) => {
    const written = [
      ...(
        await java(["write", services.bookkeeper.metadataServiceUri, PASSWORD, digest, ...quorums, "25", "true"])
      ).entries(),
    ];
    const [ledgerId, ledger] = written[0] ?? [];
    if (ledgerId === undefined || ledger === undefined) throw new Error("Java wrote no ledger");
    expect(ledger.closed).toBe(true);
    const reader = await client.openLedger(ledgerId, { recovery: false, password: PASSWORD });
    expect(reader.isClosed).toBe(true);
    expect(reader.lastAddConfirmed).toBe(24);
    expect(reader.length).toBe(ledger.length);
    expect(reader.metadata.digestType).toBe(digest === "MAC" ? "HMAC" : digest);
    const entries = await reader.readEntries(0, 24);
    entries.forEach((entry) => expect(entry.payload).toEqual(fromHex(ledger.entries.get(entry.entryId) ?? "")));
  });

  it("this client recovers a ledger a crashed Java writer left open", async () => {
    const written = [
      ...(
        await java(["write", services.bookkeeper.metadataServiceUri, PASSWORD, "CRC32C", "3", "2", "2", "15", "false"])
      ).entries(),
    ];
    const [ledgerId, ledger] = written[0] ?? [];
    if (ledgerId === undefined || ledger === undefined) throw new Error("Java wrote no ledger");
    expect((await client.getLedgerMetadata(ledgerId))?.metadata.state).toBe("OPEN");
    const recovered = await client.openLedger(ledgerId, { recovery: true, password: PASSWORD });
    expect(recovered.lastAddConfirmed).toBe(14);
    expect(recovered.length).toBe(ledger.length);
    const entries = await recovered.readEntries(0, 14);
    entries.forEach((entry) => expect(toHex(entry.payload)).toBe(ledger.entries.get(entry.entryId)));
  });
});
