// BookKeeper bookies are real: the shared three are registered in ZooKeeper and accept connections; on a
// private set, a bookie killed with SIGKILL disappears from the available list once its session expires, and
// restarting it (same port and dirs, new PID recorded in the state file) brings it back.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadServices, startServices, type RunningServices } from "../src/index.js";
import { isProcessAlive } from "../src/managed-process.js";
import { isPortOpen } from "../src/ports.js";
import { waitUntil } from "../src/wait.js";
import { availableBookies } from "./support/zookeeper.js";

describe("shared bookies", () => {
  it("are three, registered under the available-bookies path, and listening", async () => {
    const services = loadServices();
    const bk = services.bookkeeper;
    expect(bk.bookies).toHaveLength(3);
    const registered = await availableBookies(services.zookeeper.connectString, bk.zkLedgersRoot);
    expect(registered).toEqual(bk.bookies.map((b) => b.id).sort());
    for (const bookie of bk.bookies) {
      expect(bookie.address).toBe(bookie.id);
      expect(await isPortOpen(bookie.port)).toBe(true);
      expect(isProcessAlive(bookie.pid)).toBe(true);
    }
  });
});

describe("bookie faults (private ZooKeeper + 3 bookies)", () => {
  let own: RunningServices | undefined;
  const stateFile = path.join(os.tmpdir(), `nereus-bk-fault-${process.pid}.json`);

  afterAll(async () => {
    await own?.stop();
    fs.rmSync(stateFile, { force: true });
  });

  it("kill -9 removes a bookie's registration; restart brings it back with a new pid", async () => {
    own = await startServices({ bookkeeper: { bookies: 3 }, stateFile });
    const connect = own.zookeeper.connectString;
    const root = own.bookkeeper.zkLedgersRoot;
    const victim = own.bookkeeper.bookies[1];
    if (victim === undefined) throw new Error("no bookie 1");
    expect(await availableBookies(connect, root)).toHaveLength(3);

    // Fault it from a second handle, as a test worker would (loaded from the state file).
    const handle = loadServices(stateFile);
    await handle.killBookie(1);
    expect(isProcessAlive(victim.pid)).toBe(false);
    await waitUntil(
      `bookie ${victim.id} to leave ${root}/available`,
      async () => !(await availableBookies(connect, root)).includes(victim.id),
      { timeoutMs: own.bookkeeper.zkTimeoutMs * 4, intervalMs: 200 },
    );
    expect(await availableBookies(connect, root)).toHaveLength(2);

    const newPid = await handle.restartBookie(1);
    expect(newPid).not.toBe(victim.pid);
    expect(isProcessAlive(newPid)).toBe(true);
    expect(await availableBookies(connect, root)).toContain(victim.id);
    expect(await isPortOpen(victim.port)).toBe(true);
    // The state file now names the new process, so any stop reaches it.
    expect(loadServices(stateFile).bookkeeper.bookies[1]?.pid).toBe(newPid);
    expect(own.bookkeeper.bookies[1]?.pid).toBe(newPid);
  });
});
