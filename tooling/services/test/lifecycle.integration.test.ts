// Stopping leaves nothing behind: after stop() (library) and `nereus-services stop` (CLI) none of the run's
// PIDs is alive and none of its ports accepts a connection; the CLI's state file carries endpoints and PIDs.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readStateFile, RunningServices, startServices } from "../src/index.js";
import { isProcessAlive } from "../src/managed-process.js";
import { isPortOpen } from "../src/ports.js";
import { waitUntil } from "../src/wait.js";
import { runCli } from "./support/cli.js";

async function openPorts(ports: readonly number[]): Promise<number[]> {
  const open = await Promise.all(ports.map(async (p) => ((await isPortOpen(p, 500)) ? p : undefined)));
  return open.filter((p): p is number => p !== undefined);
}

describe("stopping the harness", () => {
  it("stop() leaves no process and no listening port (etcd, s3proxy, ZooKeeper)", async () => {
    const services = await startServices({ etcd: true, s3: true, zookeeper: true });
    const { processes, runDir } = services.description;
    expect(processes.map((p) => p.name).sort()).toEqual(["etcd", "s3proxy", "zookeeper"]);
    const pids = processes.map((p) => p.pid);
    const ports = processes.flatMap((p) => p.ports);
    expect(pids.every(isProcessAlive)).toBe(true);
    expect(await openPorts(ports)).toEqual(ports);

    const report = await services.stop();
    expect(report.alivePids).toEqual([]);
    expect(report.openPorts).toEqual([]);
    expect(pids.filter(isProcessAlive)).toEqual([]);
    expect(await openPorts(ports)).toEqual([]);
    expect(fs.existsSync(runDir)).toBe(false);
  });

  it("the CLI starts detached services, records them in the state file, and stops them by PID", async () => {
    const stateFile = path.join(os.tmpdir(), `nereus-cli-${process.pid}.json`);
    try {
      const started = await runCli(["start", "--only", "etcd,zookeeper", "--state", stateFile]);
      expect(started.stderr).not.toMatch(/error/);
      expect(started.code).toBe(0);
      expect(started.stdout).toMatch(/ready in \d+ ms/);

      const state = readStateFile(stateFile);
      expect(state.etcd?.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(state.zookeeper?.connectString).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(state.s3).toBeUndefined();
      const pids = state.processes.map((p) => p.pid);
      const ports = state.processes.flatMap((p) => p.ports);
      // The CLI process has exited; its services live on.
      expect(pids.every(isProcessAlive)).toBe(true);
      expect(await openPorts(ports)).toEqual(ports);

      const again = await runCli(["start", "--only", "etcd", "--state", stateFile]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/describes running services/);

      const stopped = await runCli(["stop", "--state", stateFile]);
      expect(stopped.code).toBe(0);
      expect(stopped.stdout).toMatch(/no process or port left/);
      expect(pids.filter(isProcessAlive)).toEqual([]);
      expect(await openPorts(ports)).toEqual([]);
      expect(fs.existsSync(stateFile)).toBe(false);
      expect(fs.existsSync(state.runDir)).toBe(false);
    } finally {
      if (fs.existsSync(stateFile)) await runCli(["stop", "--state", stateFile]);
    }
  });

  it("the watchdog stops a run whose owner process was killed with SIGKILL", async () => {
    const stateFile = path.join(os.tmpdir(), `nereus-orphan-${process.pid}.json`);
    const owner = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "support/orphan-owner.ts"), stateFile],
      {
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("owner did not get ready in 60 s")), 60_000);
        owner.stdout.on("data", (chunk: Buffer) => {
          if (chunk.toString().includes("ready")) {
            clearTimeout(timer);
            resolve();
          }
        });
        owner.once("exit", (code) => reject(new Error(`owner exited early (${String(code)})`)));
      });
      const state = readStateFile(stateFile);
      const etcdPid = state.processes[0]?.pid ?? 0;
      const ports = state.processes.flatMap((p) => p.ports);
      expect(state.watchdogPid).toBeDefined();
      expect(isProcessAlive(etcdPid)).toBe(true);

      owner.kill("SIGKILL");
      await waitUntil("etcd of the dead owner to be stopped", async () => !isProcessAlive(etcdPid), {
        timeoutMs: 20_000,
        intervalMs: 200,
      });
      expect(await openPorts(ports)).toEqual([]);
      await waitUntil("the watchdog to exit", async () => !isProcessAlive(state.watchdogPid ?? 0), {
        timeoutMs: 10_000,
        intervalMs: 200,
      });
    } finally {
      owner.kill("SIGKILL");
      if (fs.existsSync(stateFile)) {
        await RunningServices.fromStateFile(stateFile)
          .stop()
          .catch(() => undefined);
        fs.rmSync(stateFile, { force: true });
      }
    }
  });
});
