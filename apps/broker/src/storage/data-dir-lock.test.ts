import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { tempDir } from "../../test/support/temp-dirs.js";
import { StartupError } from "../errors/startup-error.js";
import { lockDataDir } from "./data-dir-lock.js";

const HOLDER = path.resolve(import.meta.dirname, "../../test/support/hold-data-dir-lock.ts");
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** A child process holding the lock of `dataDir`, once it said so. */
async function holder(dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--conditions=@nereus/source", "--import", "tsx", HOLDER, dataDir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      if (chunk.startsWith("locked ")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`holder exited (${String(code)}): ${stderr}`)));
  });
  return child;
}

async function killNine(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

describe("data directory lock", () => {
  test("one holder per directory in a process; a released lock is taken again", () => {
    const dir = path.join(tempDir("lock"), "data");
    const first = lockDataDir(dir);
    expect(readlinkSync(path.join(dir, "broker.lock"))).toBe(`${String(process.pid)}@${hostname()}`);
    expect(() => lockDataDir(dir)).toThrow(StartupError);
    expect(() => lockDataDir(dir)).toThrow(
      `data directory ${dir} is in use by another broker (pid ${String(process.pid)} on ${hostname()}); stop it or choose another --data-dir`,
    );
    first.release();
    first.release();
    lockDataDir(dir).release();
  });

  test("another process's lock refuses, naming it; its kill -9 frees the lock at once", async () => {
    const dir = path.join(tempDir("lock"), "data");
    const child = await holder(dir);
    expect(() => lockDataDir(dir)).toThrow(`is in use by another broker (pid ${String(child.pid)} on ${hostname()})`);
    await killNine(child);
    lockDataDir(dir).release();
  });

  test("a record naming this process's own pid does not block: liveness is the OS lock, not the pid", () => {
    const dir = tempDir("lock");
    symlinkSync(`${String(process.pid)}@${hostname()}`, path.join(dir, "broker.lock"));
    lockDataDir(dir).release();
    writeFileSync(path.join(dir, "broker.lock"), `${String(process.pid)}\n`);
    const lock = lockDataDir(dir);
    expect(readlinkSync(path.join(dir, "broker.lock"))).toBe(`${String(process.pid)}@${hostname()}`);
    lock.release();
  });

  test("a lock file that is not a database is a one-line StartupError saying what to do", () => {
    const dir = tempDir("lock");
    writeFileSync(path.join(dir, "broker.lock.sqlite"), "not a database, but long enough to have a header".repeat(4));
    expect(() => lockDataDir(dir)).toThrow(
      /^cannot take the lock .*broker\.lock\.sqlite \(SQLITE_NOTADB\); if no broker/,
    );
  });

  test("an unusable directory is a one-line StartupError", () => {
    const parent = tempDir("lock");
    const file = path.join(parent, "file");
    writeFileSync(file, "");
    expect(() => lockDataDir(path.join(file, "data"))).toThrow(/^data directory .* is not usable \(ENOTDIR\)/);
    if (process.getuid?.() !== 0) {
      const locked = path.join(parent, "locked");
      lockDataDir(locked).release();
      chmodSync(locked, 0o500);
      expect(() => lockDataDir(locked)).toThrow(/is not usable \(EACCES\)/);
    }
  });
});
