// The Java client drivers of the integration tests (clients/*.java): compiled once per test file with javac against
// one of the harness's Maven artifact sets, and run with a deadline; a run that fails throws with the end of its
// output, so a test failure shows what the Java client said.
import path from "node:path";
import { type ArtifactSetName, JavaProgram, ensureArtifactSet } from "@nereus/test-services";

/** JVM flags of every driver run: quick start-up, the clients' own logging at warn. */
export const DRIVER_JVM_ARGS = [
  "-XX:TieredStopAtLevel=1",
  "-Xshare:auto",
  "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
];

/** Compiles `clients/<mainClass>.java` against `artifactSet` (which must be fetched already). */
export async function compileJavaClient(artifactSet: ArtifactSetName, mainClass: string): Promise<JavaProgram> {
  await ensureArtifactSet(artifactSet, { env: process.env, autoInstall: false, log: () => undefined });
  return JavaProgram.compile({
    sources: [path.join(import.meta.dirname, "..", "clients", `${mainClass}.java`)],
    mainClass,
    artifactSet,
  });
}

/** Runs `program` with `args`; its stdout lines. @throws Error when it exits non-zero or outlives `timeoutMs`. */
export async function runJavaClient(
  program: JavaProgram,
  args: readonly string[],
  timeoutMs: number,
): Promise<string[]> {
  const result = await program.run(args, { timeoutMs, jvmArgs: DRIVER_JVM_ARGS });
  if (result.code !== 0) {
    throw new Error(
      `${program.mainClass} ${args[0] ?? ""} failed (${String(result.code)}): ${result.lines.join("\n").slice(-2_000)}\n${result.stderr.slice(-6_000)}`,
    );
  }
  return result.lines;
}
