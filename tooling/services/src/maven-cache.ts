// Maven artifact cache: each artifact set is a small pom in tooling/services/maven/ whose dependencies are
// copied with `mvn dependency:copy-dependencies` into <repo>/.cache/maven-libs/<set>/. A marker file holding
// the pom's hash makes the copy count as complete, so later runs never call mvn; a lock directory keeps
// concurrent harnesses from fetching the same set twice.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ServiceStartError } from "./errors.js";
import { MAVEN_POM_DIR, mavenCacheRoot } from "./paths.js";
import { ensureJava, ensureRequirements, executable, type PrerequisiteContext } from "./prerequisites.js";
import { isProcessAlive } from "./managed-process.js";
import { sleep } from "./wait.js";

/** Names of the artifact sets (one pom each). */
export type ArtifactSetName = "s3proxy" | "bookkeeper" | "kafka" | "pulsar-client" | "pulsar";

/** Every artifact set, in a stable order. */
export const ARTIFACT_SETS: readonly ArtifactSetName[] = ["s3proxy", "bookkeeper", "kafka", "pulsar-client", "pulsar"];

const MARKER = ".complete";

/** The copy goal, fully qualified so no plugin-prefix look-up can hide a network error (and the version is pinned). */
const COPY_GOAL = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies";

/** The pom of an artifact set. */
function pomFile(set: ArtifactSetName): string {
  return path.join(MAVEN_POM_DIR, `${set}.pom.xml`);
}

/** The cache directory of an artifact set (its jars; a Java classpath of `<dir>/*`). */
export function artifactSetDir(set: ArtifactSetName, env: NodeJS.ProcessEnv = process.env): string {
  return path.join(mavenCacheRoot(env), set);
}

function pomHash(set: ArtifactSetName): string {
  return crypto
    .createHash("sha256")
    .update(fs.readFileSync(pomFile(set)))
    .digest("hex");
}

/** True when the set's cache directory is complete for the current pom. */
export function isArtifactSetCached(set: ArtifactSetName, env: NodeJS.ProcessEnv = process.env): boolean {
  try {
    const marker = JSON.parse(fs.readFileSync(path.join(artifactSetDir(set, env), MARKER), "utf8")) as {
      pomSha256?: string;
    };
    return marker.pomSha256 === pomHash(set);
  } catch {
    return false;
  }
}

function settingsForMirror(mirror: string, dir: string): string {
  const file = path.join(dir, "settings.xml");
  const escaped = mirror.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  fs.writeFileSync(
    file,
    `<settings><mirrors><mirror><id>nereus-mirror</id><mirrorOf>*</mirrorOf><url>${escaped}</url></mirror></mirrors></settings>\n`,
  );
  return file;
}

/** Network failures as mvn reports them (the reason shown in the error line). */
const NETWORK_REASON =
  /(Connection refused|UnknownHostException(?:: [^\s,;:]+)?|Network is unreachable|No route to host|connect timed out|Read timed out|Temporary failure in name resolution|Connect to \S+ failed)/i;
/** ANSI colour sequences mvn may print. */
const ANSI_ESCAPE = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");
/** Output that means the repository could not be read at all. */
const UNREACHABLE = /Could not transfer|transfer failed|No plugin found for prefix/i;

function describeMavenFailure(set: ArtifactSetName, output: string): string {
  const lines = output
    .split("\n")
    .map((l) => l.replace(ANSI_ESCAPE, "").trim())
    .filter((l) => l !== "");
  const errorLine = (lines.find((l) => l.startsWith("[ERROR]")) ?? lines.at(-1) ?? "no output").replace(
    /^\[ERROR\]\s*/,
    "",
  );
  const short = errorLine.length > 220 ? `${errorLine.slice(0, 220)}...` : errorLine;
  const network = NETWORK_REASON.exec(output);
  if (network !== null || UNREACHABLE.test(output)) {
    const reason = network?.[1] ?? "transfer failed";
    return `Maven Central unreachable while fetching artifact set "${set}" (${reason}); mvn: ${short}`;
  }
  return `mvn dependency:copy-dependencies failed for artifact set "${set}": ${short}`;
}

function runMaven(
  mvn: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(mvn, [...args], { env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString("utf8")).slice(-20_000);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const timer = setTimeout(() => {
      output += `\n[ERROR] mvn did not finish within ${timeoutMs / 1000} s (connect timed out?)`;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: `[ERROR] ${error.message}` });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function withLock<T>(lockDir: string, timeoutMs: number, body: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, "pid"), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      let owner = Number.NaN;
      try {
        owner = Number(fs.readFileSync(path.join(lockDir, "pid"), "utf8"));
      } catch {
        // Being created right now.
      }
      const stale = Number.isInteger(owner) && owner > 0 && !isProcessAlive(owner);
      if (stale) fs.rmSync(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`lock ${lockDir} is held by pid ${owner}`, { cause: error });
      else await sleep(250);
    }
  }
  try {
    return await body();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Makes sure the jars of `set` are in the cache and returns the directory. Calls mvn only when the marker is
 * missing or the pom changed. Honors `NEREUS_MAVEN_CACHE` (cache root), `NEREUS_MAVEN_REPO_LOCAL`
 * (`-Dmaven.repo.local`) and `NEREUS_MAVEN_MIRROR` (a mirror URL for every repository).
 * @throws ServiceStartError("maven") naming mvn/java missing, Maven Central unreachable, or the mvn error.
 */
export async function ensureArtifactSet(set: ArtifactSetName, ctx: PrerequisiteContext): Promise<string> {
  const dir = artifactSetDir(set, ctx.env);
  if (isArtifactSetCached(set, ctx.env)) return dir;
  await ensureJava("maven", ctx);
  const [mvn] = await ensureRequirements("maven", [executable("mvn", "maven")], ctx);
  if (mvn === undefined) throw new ServiceStartError("maven", "mvn not found");
  const root = mavenCacheRoot(ctx.env);
  fs.mkdirSync(root, { recursive: true });
  return withLock(path.join(root, `${set}.lock`), 15 * 60_000, async () => {
    if (isArtifactSetCached(set, ctx.env)) return dir;
    const started = Date.now();
    ctx.log(`fetching Maven artifact set "${set}" into ${dir}`);
    const tmp = path.join(root, `${set}.tmp-${process.pid}`);
    fs.rmSync(tmp, { recursive: true, force: true });
    fs.mkdirSync(tmp, { recursive: true });
    const args = ["-B", "-q", "-f", pomFile(set), COPY_GOAL, `-DoutputDirectory=${tmp}`, "-DincludeScope=runtime"];
    const repoLocal = ctx.env.NEREUS_MAVEN_REPO_LOCAL;
    if (repoLocal !== undefined && repoLocal !== "") args.push(`-Dmaven.repo.local=${repoLocal}`);
    const mirror = ctx.env.NEREUS_MAVEN_MIRROR;
    if (mirror !== undefined && mirror !== "") args.push("-s", settingsForMirror(mirror, tmp));
    const result = await runMaven(mvn, args, ctx.env, 10 * 60_000);
    fs.rmSync(path.join(tmp, "settings.xml"), { force: true });
    const jars = fs.readdirSync(tmp).filter((f) => f.endsWith(".jar"));
    if (result.code !== 0 || jars.length === 0) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw new ServiceStartError("maven", describeMavenFailure(set, result.output));
    }
    fs.writeFileSync(
      path.join(tmp, MARKER),
      `${JSON.stringify({ set, pomSha256: pomHash(set), jars: jars.length, fetchedAt: new Date().toISOString() })}\n`,
    );
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(tmp, dir);
    ctx.log(`fetched "${set}" (${jars.length} jars) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return dir;
  });
}
