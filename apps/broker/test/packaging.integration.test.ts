// The published packages work outside the workspace. The broker and every workspace package it needs at run time
// are packed with the workspace's pnpm (the tarballs `changeset publish` uploads), the tarballs are installed with npm
// into a fresh project in the temp directory, and the broker runs from there: `nereus --version`, then a broker on free ports and a temporary data
// directory that answers /healthz and stops on SIGTERM. A second project installs only @nereus/core,
// @nereus/metadata and @nereus/object-wal, without their optional backend packages: they import, the filesystem
// store without segments works, and every other backend names the package it is missing.
// Needs those packages built (dist/): turbo runs this package's tests after its build (turbo.json), which comes
// after theirs. Third-party packages come from npm's
// cache, or from the registry when the cache lacks them (--prefer-offline). Install scripts are skipped: the one
// native addon that has no prebuilt package, better-sqlite3's, is copied from the workspace's build of the same
// version for the same Node, so nothing is compiled.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { APP_DIR, tempDir } from "./support/broker-fixture.js";

const ROOT = path.resolve(APP_DIR, "../..");
const PNPM = path.join(ROOT, "node_modules", ".bin", "pnpm");
const run = promisify(execFile);

interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly dependencies?: Readonly<Record<string, string>>;
}

interface PublishedPackage {
  readonly dir: string;
  readonly manifest: Manifest;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as Manifest;
}

/** The broker and the workspace packages (under packages/) it depends on at run time, directly or not. */
function brokerWithItsPackages(): PublishedPackage[] {
  const byName = new Map<string, PublishedPackage>();
  for (const name of readdirSync(path.join(ROOT, "packages"))) {
    const dir = path.join(ROOT, "packages", name);
    if (existsSync(path.join(dir, "package.json")))
      byName.set(readManifest(dir).name, { dir, manifest: readManifest(dir) });
  }
  const found = new Map<string, PublishedPackage>();
  const visit = (published: PublishedPackage): void => {
    if (found.has(published.manifest.name)) return;
    found.set(published.manifest.name, published);
    for (const dependency of Object.keys(published.manifest.dependencies ?? {})) {
      const workspacePackage = byName.get(dependency);
      if (workspacePackage !== undefined) visit(workspacePackage);
    }
  };
  visit({ dir: APP_DIR, manifest: readManifest(APP_DIR) });
  return [...found.values()];
}

/** Packs one package into `destination` and returns the tarball's path. */
async function pack(published: PublishedPackage, destination: string): Promise<string> {
  if (!existsSync(path.join(published.dir, "dist"))) {
    throw new Error(`${published.manifest.name} is not built (no dist/): run \`pnpm build\` first`);
  }
  await run(PNPM, ["pack", "--pack-destination", destination], { cwd: published.dir, timeout: 60_000 });
  const file = `${published.manifest.name.replace(/^@/, "").replace("/", "-")}-${published.manifest.version}.tgz`;
  const tarball = path.join(destination, file);
  if (!existsSync(tarball)) throw new Error(`pnpm pack did not write ${tarball}`);
  return tarball;
}

/** The environment of a child npm: none of the settings an enclosing npm run passes down. */
function npmEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^npm_(config|package|lifecycle)_/i.test(name)) environment[name] = value;
  }
  return { ...environment, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false" };
}

/** A fresh project in `dir` with `tarballs` installed by npm (no install scripts). */
async function installProject(dir: string, tarballs: readonly string[]): Promise<void> {
  writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "nereus-install-check", private: true, type: "module" }),
  );
  await run("npm", ["install", "--ignore-scripts", "--prefer-offline", "--loglevel=error", ...tarballs], {
    cwd: dir,
    env: npmEnvironment(),
    timeout: 150_000,
  });
}

/** Copies the workspace's build of better-sqlite3's addon into the project's (same version, same Node). */
function copyBetterSqlite3Addon(projectDir: string): void {
  const workspaceCopy = path.dirname(createRequire(import.meta.url).resolve("better-sqlite3/package.json"));
  const installed = path.join(projectDir, "node_modules", "better-sqlite3");
  expect(readManifest(installed).version).toBe(readManifest(workspaceCopy).version);
  const release = path.join("build", "Release", "better_sqlite3.node");
  mkdirSync(path.dirname(path.join(installed, release)), { recursive: true });
  copyFileSync(path.join(workspaceCopy, release), path.join(installed, release));
}

/** Lines a child writes to stdout, as they come. */
function collectLines(child: ChildProcess): string[] {
  const lines: string[] = [];
  let pending = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const complete = pending.split("\n");
    pending = complete.pop() ?? "";
    lines.push(...complete);
  });
  return lines;
}

/** The "broker started" log record, once the broker wrote it; throws if the broker exits or 60 s pass first. */
async function startedRecord(child: ChildProcess, lines: readonly string[], stderr: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const line = lines.find((candidate) => candidate.includes('"broker started"'));
    if (line !== undefined) return JSON.parse(line) as { admin: string; kafka: string; pulsar: string };
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the broker exited: ${stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the broker did not start within 60 s: ${stderr()}`);
}

const packages = brokerWithItsPackages();
const brokerVersion = readManifest(APP_DIR).version;
const workDir = tempDir("packaging");
const tarballDir = path.join(workDir, "tarballs");
const tarballs = new Map<string, string>();

beforeAll(async () => {
  mkdirSync(tarballDir);
  for (const published of packages) tarballs.set(published.manifest.name, await pack(published, tarballDir));
}, 120_000);

describe("the packed packages", () => {
  test("are the broker and the packages it needs, none of them private", () => {
    expect(packages.map((published) => published.manifest.name)).toEqual(
      expect.arrayContaining(["@nereus/broker", "@nereus/core", "@nereus/metadata", "@nereus/object-wal"]),
    );
    for (const published of packages) expect(published.manifest.private, published.manifest.name).toBeUndefined();
  });

  test("carry their LICENSE and a manifest with registry ranges and no source-only export condition", async () => {
    for (const [name, tarball] of tarballs) {
      const { stdout: listing } = await run("tar", ["tzf", tarball]);
      expect(listing.split("\n"), name).toContain("package/LICENSE");
      expect(listing, name).not.toMatch(/^package\/src\//m);
      const { stdout: manifestText } = await run("tar", ["xzf", tarball, "-O", "package/package.json"]);
      expect(manifestText, name).not.toContain("workspace:");
      const manifest = JSON.parse(manifestText) as { exports?: unknown };
      expect(JSON.stringify(manifest.exports), name).toMatch(/"\.\/dist\//);
      expect(JSON.stringify(manifest.exports), name).not.toContain("@nereus/source");
    }
  });
});

describe("installed from the tarballs into a fresh project", () => {
  const projectDir = path.join(workDir, "broker-project");

  beforeAll(async () => {
    mkdirSync(projectDir);
    await installProject(projectDir, [...tarballs.values()]);
    copyBetterSqlite3Addon(projectDir);
  }, 180_000);

  test("nereus --version prints the broker's version", async () => {
    const { stdout } = await run(path.join(projectDir, "node_modules", ".bin", "nereus"), ["--version"], {
      cwd: projectDir,
      timeout: 30_000,
    });
    expect(stdout).toBe(`nereus ${brokerVersion}\n`);
  });

  test("the broker starts on a fresh data directory, answers /healthz from the installed packages, and stops", async () => {
    const dataDir = path.join(workDir, "data");
    const child = spawn(
      path.join(projectDir, "node_modules", ".bin", "nereus"),
      ["--data-dir", dataDir, "--kafka-port", "0", "--pulsar-port", "0", "--admin-port", "0"],
      { cwd: projectDir, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
    try {
      const started = await startedRecord(child, collectLines(child), () => stderr);
      const response = await fetch(`http://${started.admin}/healthz`, { signal: AbortSignal.timeout(10_000) });
      expect(response.status).toBe(200);
      expect(existsSync(path.join(dataDir, "metadata.sqlite"))).toBe(true);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });
});

describe("@nereus/metadata and @nereus/object-wal installed without their optional backend packages", () => {
  const projectDir = path.join(workDir, "library-project");
  const CHECK = `
import { createEtcdMetadataStore, createSqliteMetadataStore } from "@nereus/metadata";
import { createFileSystemObjectStore, createS3ObjectStore } from "@nereus/object-wal";
const outcome = (promise) => promise.then(() => "opened", (error) => \`\${error.code}: \${error.message}\`);
const files = createFileSystemObjectStore({ root: "files", publishWorkers: 1 });
await files.putIfAbsent("a", new Uint8Array([7]));
const segments = createFileSystemObjectStore({ root: "segmented", publishWorkers: 1, segments: true });
console.log(JSON.stringify({
  sqlite: await outcome(createSqliteMetadataStore({ path: "metadata.db" })),
  etcd: await outcome(createEtcdMetadataStore({ endpoints: ["http://127.0.0.1:1"] })),
  s3: await outcome(createS3ObjectStore({ region: "us-east-1", bucket: "b" })),
  segments: await outcome(segments.open()),
  files: [...(await files.get("a"))],
}));
await files.close();
await segments.close();
`;

  beforeAll(async () => {
    mkdirSync(projectDir);
    const names = ["@nereus/core", "@nereus/metadata", "@nereus/object-wal"];
    await installProject(
      projectDir,
      names.map((name) => {
        const tarball = tarballs.get(name);
        if (tarball === undefined) throw new Error(`${name} was not packed`);
        return tarball;
      }),
    );
    writeFileSync(path.join(projectDir, "check.mjs"), CHECK);
  }, 180_000);

  test("npm installed none of them", () => {
    for (const name of ["better-sqlite3", "etcd3", "@aws-sdk/client-s3"]) {
      expect(existsSync(path.join(projectDir, "node_modules", name)), name).toBe(false);
    }
  });

  test("the packages import, the plain filesystem store works, and each other backend names its package", async () => {
    const { stdout } = await run(process.execPath, ["check.mjs"], { cwd: projectDir, timeout: 60_000 });
    const result = JSON.parse(stdout) as Record<string, unknown>;
    const missing = (packageName: string, range: string) =>
      expect.stringMatching(
        new RegExp(
          `^DEPENDENCY_UNAVAILABLE: .* needs the package ${packageName}, which is not installed; install it with: npm install ${packageName}@"\\${range}"$`,
        ),
      );
    expect(result).toEqual({
      sqlite: missing("better-sqlite3", "^12.11.1"),
      etcd: missing("etcd3", "^1.1.2"),
      s3: missing("@aws-sdk/client-s3", "^3.1175.0"),
      segments: missing("better-sqlite3", "^12.11.1"),
      files: [7],
    });
  });
});
