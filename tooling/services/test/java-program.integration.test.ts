// JavaProgram against the real JDK: compile, run with arguments, the cache keyed by content, spawn, deadlines and
// compile errors.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { JavaProgram } from "../src/index.js";

const work = fs.mkdtempSync(path.join(os.tmpdir(), "java-program-test-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function source(name: string, body: string): string {
  const file = path.join(work, `${name}.java`);
  fs.writeFileSync(
    file,
    `public class ${name} { public static void main(String[] args) throws Exception { ${body} } }`,
  );
  return file;
}

describe("JavaProgram", () => {
  it("compiles, runs with arguments and collects stdout lines and the exit code", async () => {
    const program = await JavaProgram.compile({
      sources: [source("Echo", 'for (String a : args) System.out.println("ARG " + a); System.exit(3);')],
      mainClass: "Echo",
      classpath: [work],
    });
    try {
      const result = await program.run(["one", "two words"]);
      expect(result).toMatchObject({ code: 3, lines: ["ARG one", "ARG two words"] });
    } finally {
      program.dispose();
    }
    expect(fs.existsSync(program.classesDir)).toBe(false);
  }, 60_000);

  it("reuses cached classes until a source changes, and writes extra files next to them", async () => {
    const cacheDir = path.join(work, "cache");
    const file = source("Cached", 'System.out.println("v1");');
    const options = { sources: [file], mainClass: "Cached", classpath: [work], cacheDir, files: { "x.txt": "hi" } };
    const first = await JavaProgram.compile(options);
    const again = await JavaProgram.compile(options);
    expect(again.classesDir).toBe(first.classesDir);
    expect(fs.readFileSync(path.join(first.classesDir, "x.txt"), "utf8")).toBe("hi");
    source("Cached", 'System.out.println("v2");');
    const changed = await JavaProgram.compile(options);
    expect(changed.classesDir).not.toBe(first.classesDir);
    expect((await changed.run([])).lines).toEqual(["v2"]);
  }, 90_000);

  it("spawns a program whose lines arrive while it runs, and kills one that outlives its deadline", async () => {
    const program = await JavaProgram.compile({
      sources: [source("Slow", 'System.out.println("started"); Thread.sleep(60_000);')],
      mainClass: "Slow",
      classpath: [work],
    });
    try {
      const spawned = program.spawn([]);
      for (let i = 0; i < 200 && spawned.lines.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(spawned.lines).toEqual(["started"]);
      spawned.child.kill("SIGKILL");
      await spawned.exited;
      await expect(program.run([], { timeoutMs: 1_500 })).rejects.toThrow(/timed out after 1500 ms/);
    } finally {
      program.dispose();
    }
  }, 60_000);

  it("names the source and javac's first error when compiling fails", async () => {
    await expect(
      JavaProgram.compile({ sources: [source("Broken", "int x = ;")], mainClass: "Broken", classpath: [work] }),
    ).rejects.toThrow(/javac Broken\.java failed: .*error:/);
  }, 60_000);
});
