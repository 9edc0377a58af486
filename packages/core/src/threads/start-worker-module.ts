// Starts a worker thread on a module file of the calling package, from its build or from its sources. Built
// packages run `dist/<name>.js`, which tsup emits as an entry of its own. Running from sources (vitest, or
// `node --conditions=@nereus/source --import tsx`) there is no `.js` beside the caller, only `<name>.ts`: the first
// start of that module in a process bundles it with esbuild — workspace packages from their sources (the
// `@nereus/source` condition), npm packages left as imports — into the owning package's node_modules/.cache, and
// every worker starts on that file, as fast as on a built one. (Node 20 does not apply a worker's
// `--import tsx` to the worker's entry; registering tsx inside each worker costs a loader thread per worker and
// about half a second per start under load, which tests that open hundreds of stores cannot afford.) The module
// file is the program: nothing is evaluated from strings.
import { createHash } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import type * as Esbuild from "esbuild";

/** The export condition that resolves workspace packages to their TypeScript sources. */
const SOURCE_CONDITION = "@nereus/source";

/** Bundles made in this process, by source path. */
const bundles = new Map<string, string>();

/**
 * Starts a worker thread running the module at `module`, given as the URL of its built JavaScript — write
 * `new URL("./name.js", import.meta.url)` in the calling module. When that file does not exist but its TypeScript
 * source `name.ts` does (the caller runs from sources), the thread runs a bundle of the source (see the module
 * comment), with source maps on so stack traces name the `.ts` files. `options` are the Worker's. Throws when
 * neither file exists.
 */
export function startWorkerModule(module: URL, options: WorkerOptions = {}): Worker {
  if (fs.existsSync(fileURLToPath(module))) return new Worker(module, options);
  const source = fileURLToPath(module).replace(/\.js$/, ".ts");
  if (!source.endsWith(".ts") || !fs.existsSync(source)) {
    throw new Error(`worker module ${fileURLToPath(module)} does not exist, nor does its TypeScript source`);
  }
  return new Worker(sourceBundle(source), {
    ...options,
    execArgv: ["--enable-source-maps", ...(options.execArgv ?? [])],
  });
}

/** The bundle of the TypeScript module at `source` (made once per process; same content, same file). */
function sourceBundle(source: string): string {
  const made = bundles.get(source);
  if (made !== undefined) return made;
  const packageDir = owningPackage(source);
  const esbuild = createRequire(import.meta.url)("esbuild") as typeof Esbuild;
  const result = esbuild.buildSync({
    entryPoints: [source],
    bundle: true,
    write: false,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: [SOURCE_CONDITION],
    external: [...npmPackages(packageDir, new Set())],
    sourcemap: "inline",
    logLevel: "silent",
  });
  const contents = result.outputFiles[0]?.contents;
  if (contents === undefined) throw new Error(`bundling worker module ${source} produced no output`);
  const name = `${path.basename(source, ".ts")}-${createHash("sha256").update(contents).digest("hex").slice(0, 16)}.mjs`;
  // Beside the package's own node_modules, so the bundle's npm imports resolve as the source's do.
  const file = path.join(packageDir, "node_modules", ".cache", "nereus-worker-modules", name);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const temporary = `${file}.${String(process.pid)}.tmp`;
    fs.writeFileSync(temporary, contents);
    fs.renameSync(temporary, file);
  }
  bundles.set(source, file);
  return file;
}

/** The directory of the nearest package.json above `file`. */
function owningPackage(file: string): string {
  for (let directory = path.dirname(file); ; directory = path.dirname(directory)) {
    if (fs.existsSync(path.join(directory, "package.json"))) return directory;
    if (directory === path.dirname(directory)) throw new Error(`no package.json above ${file}`);
  }
}

/**
 * The npm packages the package at `packageDir` and the workspace packages it uses depend on (kept as imports in a
 * bundle); workspace packages (`workspace:` versions) are followed, not listed.
 */
function npmPackages(packageDir: string, visited: Set<string>): Set<string> {
  const names = new Set<string>();
  if (visited.has(packageDir)) return names;
  visited.add(packageDir);
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8")) as Record<
    string,
    Record<string, string> | undefined
  >;
  for (const field of ["dependencies", "peerDependencies", "devDependencies"]) {
    for (const [name, version] of Object.entries(manifest[field] ?? {})) {
      if (!version.startsWith("workspace:")) {
        names.add(name);
        continue;
      }
      const linked = path.join(packageDir, "node_modules", name);
      if (field !== "devDependencies" && fs.existsSync(linked))
        for (const each of npmPackages(fs.realpathSync(linked), visited)) names.add(each);
    }
  }
  return names;
}
