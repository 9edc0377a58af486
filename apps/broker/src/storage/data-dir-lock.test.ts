import { chmodSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../test/support/temp-dirs.js";
import { StartupError } from "../errors/startup-error.js";
import { lockDataDir } from "./data-dir-lock.js";

describe("data directory lock", () => {
  test("one broker per directory; released locks and locks of dead processes are taken over", () => {
    const dir = path.join(tempDir("lock"), "data");
    const first = lockDataDir(dir);
    expect(() => lockDataDir(dir)).toThrow(StartupError);
    expect(() => lockDataDir(dir)).toThrow(
      `data directory ${dir} is in use by another broker (pid ${String(process.pid)})`,
    );
    first.release();
    const second = lockDataDir(dir);
    second.release();
    writeFileSync(path.join(dir, "broker.lock"), "2147483646\n");
    lockDataDir(dir).release();
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
