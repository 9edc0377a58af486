// kill -9 and restart, 20 times, with the broker as PID 1 of a fresh PID namespace each time (`unshare --pid
// --fork`), as in a container: every run has the same pid as the one killed before it, and the data-directory
// lock (an OS lock, not a pid) lets each restart in at once. One record produced per run (acks=all) is read back
// at the end, so every run served the same data. Needs `unshare` with the right to make PID namespaces (root);
// where that is refused the same 20 kill -9 restarts run without a namespace (pids then differ; the lock's unit
// test covers a stale record naming the pid of the process itself), so the test never silently does nothing.
import { spawnSync } from "node:child_process";
import { readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { BrokerProcess, tempDir, testConfig } from "./support/broker-fixture.js";
import { runCommand } from "./support/run-command.js";

const ROUNDS = 20;
const UNSHARE = ["unshare", "--pid", "--fork", "--kill-child=SIGKILL"];
const unshareWorks = spawnSync(UNSHARE[0]!, [...UNSHARE.slice(1), "true"]).status === 0;

const processes: BrokerProcess[] = [];
afterEach(async () => {
  for (const broker of processes.splice(0)) await broker.stop("SIGKILL");
});

/** The pid (in this namespace) of the process `unshare --fork` started: the broker. */
function forkedChild(unsharePid: number): number {
  const children = readFileSync(`/proc/${String(unsharePid)}/task/${String(unsharePid)}/children`, "utf8").trim();
  const pid = Number(children.split(/\s+/)[0]);
  if (!Number.isSafeInteger(pid) || pid <= 0) throw new Error(`unshare ${String(unsharePid)} has no child`);
  return pid;
}

/** How each run is started: PID 1 of a new namespace where permitted, else a plain child process. */
const launcher = unshareWorks ? UNSHARE : [];

describe("kill -9 and restart in a PID namespace", () => {
  test(
    unshareWorks
      ? `the broker, PID 1 every time, comes back on its data directory ${String(ROUNDS)} times`
      : `the broker comes back on its data directory ${String(ROUNDS)} times (unshare refused: no PID namespace)`,
    async () => {
      const dataDir = tempDir("pid-namespace");
      const configFile = path.join(tempDir("pid-namespace-config"), "broker.json");
      writeFileSync(configFile, JSON.stringify(testConfig("embedded", { dataDir })));
      const topic = "restarts";
      for (let round = 0; round < ROUNDS; round += 1) {
        const broker = BrokerProcess.spawn(["--config", configFile, "--log-level", "info"], {}, launcher);
        processes.push(broker);
        const started = await broker.ready();
        const bootstrap = String(started.kafka);
        const brokerPid = unshareWorks ? forkedChild(broker.pid) : broker.pid;
        expect(readlinkSync(path.join(dataDir, "broker.lock"))).toBe(
          `${unshareWorks ? "1" : String(brokerPid)}@${hostname()}`,
        );
        const produced = await runCommand("kcat", ["-b", bootstrap, "-P", "-t", topic, "-X", "acks=all"], {
          input: `run-${String(round)}\n`,
          timeoutMs: 30_000,
        });
        expect(produced.code, produced.stderr).toBe(0);
        process.kill(brokerPid, "SIGKILL");
        const exit = await broker.exited;
        expect(exit.signal ?? exit.code).not.toBe(0);
      }
      const last = BrokerProcess.spawn(["--config", configFile, "--log-level", "info"], {}, launcher);
      processes.push(last);
      const bootstrap = String((await last.ready()).kafka);
      const consumed = await runCommand(
        "kcat",
        ["-b", bootstrap, "-C", "-t", topic, "-o", "beginning", "-e", "-q", "-f", "%s\n"],
        { timeoutMs: 60_000 },
      );
      expect(consumed.stdout.toString("utf8").trim().split("\n")).toEqual(
        Array.from({ length: ROUNDS }, (_, round) => `run-${String(round)}`),
      );
    },
  );
});
