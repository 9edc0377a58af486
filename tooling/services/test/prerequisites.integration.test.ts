// A missing prerequisite is one clear error line naming it, never a hang or a stack trace: no etcd on PATH
// with auto-install off, no java, a taken port, and Maven Central unreachable.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceStartError, startServices } from "../src/index.js";
import { allocatePorts } from "../src/ports.js";
import { runCli } from "./support/cli.js";

const NO_TOOLS = { ...process.env, PATH: "/nonexistent-nereus-path", NEREUS_SERVICES_NO_INSTALL: "1" };

function expectOneErrorLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.split("\n").filter((l) => l.trim() !== "");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^nereus-services: error: \[/);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/^\s+at /m);
}

describe("missing prerequisites", () => {
  let blocker: net.Server;
  let takenPort = 0;

  beforeAll(async () => {
    [takenPort = 0] = await allocatePorts(1);
    blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(takenPort, "127.0.0.1", resolve));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
  });

  it("library: etcd missing from PATH with auto-install off is a ServiceStartError for etcd", async () => {
    const error = await startServices({ etcd: true, env: NO_TOOLS }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceStartError);
    const failure = error as ServiceStartError;
    expect(failure.service).toBe("etcd");
    expect(failure.message).toMatch(/etcd \(executable on PATH\) not found and auto-install is disabled.*etcd-server/);
    expect(failure.message).not.toContain("\n");
  });

  it("CLI: etcd missing prints one error line and exits 1", async () => {
    const result = await runCli(
      ["start", "--only", "etcd", "--state", path.join(os.tmpdir(), `never-${process.pid}.json`), "--no-install"],
      NO_TOOLS,
    );
    expect(result.code).toBe(1);
    expectOneErrorLine(result.stderr, /\[etcd\] etcd .*not found/);
  });

  it("CLI: java missing prints one error line naming java", async () => {
    const result = await runCli(
      ["start", "--only", "zookeeper", "--state", path.join(os.tmpdir(), `never-${process.pid}.json`)],
      NO_TOOLS,
    );
    expect(result.code).toBe(1);
    expectOneErrorLine(result.stderr, /\[zookeeper\] java .*not found/);
  });

  it("a taken port is a clear error before anything is spawned", async () => {
    const error = await startServices({ etcd: { port: takenPort } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceStartError);
    expect((error as ServiceStartError).service).toBe("etcd");
    expect((error as ServiceStartError).message).toBe(`client port 127.0.0.1:${takenPort} is already in use`);
    const zk = await startServices({ zookeeper: { port: takenPort } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((zk as ServiceStartError).line()).toBe(`[zookeeper] port 127.0.0.1:${takenPort} is already in use`);
  });

  it("CLI: Maven Central unreachable is one error line", async () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "nereus-mvn-"));
    const [closedPort] = await allocatePorts(1);
    try {
      const env = {
        ...process.env,
        NEREUS_MAVEN_CACHE: path.join(scratch, "cache"),
        NEREUS_MAVEN_REPO_LOCAL: path.join(scratch, "m2"),
        NEREUS_MAVEN_MIRROR: `http://127.0.0.1:${closedPort}/maven2`,
      };
      const result = await runCli(["fetch", "--only", "s3proxy"], env, 180_000);
      expect(result.code).toBe(1);
      const lines = result.stderr.split("\n").filter((l) => l.includes("error:"));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/\[maven\] Maven Central unreachable while fetching artifact set "s3proxy"/);
      expect(result.stderr).not.toMatch(/^\s+at /m);
      expect(fs.existsSync(path.join(scratch, "cache", "s3proxy"))).toBe(false);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  }, 200_000);
});
