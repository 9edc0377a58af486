// Reads the pnpm workspace: finds its root, lists its packages (from pnpm-workspace.yaml globs of the form
// `dir/*`, `dir/**` or `dir`), reads their manifests and lists their source files. Read-only; no YAML library,
// so only the `packages:` list of plain strings is understood.
import fs from "node:fs";
import path from "node:path";
import { SCANNED_DIRS, SKIPPED_DIR_NAMES, SOURCE_FILE_PATTERN } from "./rules.js";

export interface PackageManifest {
  readonly name?: string;
  readonly private?: boolean;
  readonly exports?: unknown;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly devDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
}

export interface WorkspacePackage {
  readonly name: string;
  /** Absolute directory. */
  readonly dir: string;
  /** Directory relative to the workspace root, with `/` separators (`packages/core`). */
  readonly relativeDir: string;
  /** First segment of {@link relativeDir} (`packages`, `apps`, `tooling`). */
  readonly folder: string;
  readonly manifest: PackageManifest;
  /** Raw text of package.json, to point reports at a line. */
  readonly manifestText: string;
}

export interface Workspace {
  readonly root: string;
  readonly packages: readonly WorkspacePackage[];
  readonly byName: ReadonlyMap<string, WorkspacePackage>;
}

export const WORKSPACE_FILE = "pnpm-workspace.yaml";

/** Walks up from `start` to the directory holding pnpm-workspace.yaml. */
export function findWorkspaceRoot(start: string): string {
  let dir = path.resolve(start);
  for (;;) {
    if (fs.existsSync(path.join(dir, WORKSPACE_FILE))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no ${WORKSPACE_FILE} found above ${start}`);
    dir = parent;
  }
}

export function loadWorkspace(root: string): Workspace {
  const patterns = parseWorkspacePatterns(fs.readFileSync(path.join(root, WORKSPACE_FILE), "utf8"));
  const dirs = new Set<string>();
  for (const pattern of patterns) {
    for (const dir of expandPattern(root, pattern)) dirs.add(dir);
  }
  const packages: WorkspacePackage[] = [];
  for (const dir of [...dirs].sort()) {
    const manifestPath = path.join(dir, "package.json");
    if (!fs.existsSync(manifestPath)) continue;
    const manifestText = fs.readFileSync(manifestPath, "utf8");
    const manifest = JSON.parse(manifestText) as PackageManifest;
    if (typeof manifest.name !== "string") continue;
    const relativeDir = path.relative(root, dir).split(path.sep).join("/");
    packages.push({
      name: manifest.name,
      dir,
      relativeDir,
      folder: relativeDir.split("/")[0] ?? "",
      manifest,
      manifestText,
    });
  }
  return { root, packages, byName: new Map(packages.map((entry) => [entry.name, entry])) };
}

/** The strings of the `packages:` list; negated patterns (`!x`) are ignored. */
function parseWorkspacePatterns(yaml: string): string[] {
  const patterns: string[] = [];
  let inPackages = false;
  for (const rawLine of yaml.split(/\r?\n/)) {
    const line = rawLine.replace(/\s+#.*$/, "");
    if (/^\S/.test(line)) {
      inPackages = /^packages\s*:/.test(line);
      continue;
    }
    const item = inPackages ? /^\s+-\s*(.+?)\s*$/.exec(line) : null;
    if (!item?.[1]) continue;
    const value = item[1].replace(/^["']|["']$/g, "");
    if (!value.startsWith("!")) patterns.push(value.replace(/\/$/, ""));
  }
  return patterns;
}

function expandPattern(root: string, pattern: string): string[] {
  if (pattern.endsWith("/**")) return listDirsRecursive(path.join(root, pattern.slice(0, -3)));
  if (pattern.endsWith("/*")) return listDirs(path.join(root, pattern.slice(0, -2)));
  return [path.join(root, pattern)];
}

function listDirs(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !SKIPPED_DIR_NAMES.has(entry.name) && !entry.name.startsWith("."))
    .map((entry) => path.join(dir, entry.name));
}

function listDirsRecursive(dir: string): string[] {
  const result: string[] = [];
  for (const child of listDirs(dir)) result.push(child, ...listDirsRecursive(child));
  return result;
}

/**
 * Source files of a package: everything under the scanned folders plus top-level script files. Skips
 * node_modules, build output and dot-folders.
 */
export function listPackageFiles(packageDir: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(packageDir, { withFileTypes: true })) {
    if (entry.isFile() && SOURCE_FILE_PATTERN.test(entry.name)) files.push(path.join(packageDir, entry.name));
  }
  for (const dir of SCANNED_DIRS) collectFiles(path.join(packageDir, dir), files);
  return files.sort();
}

function collectFiles(dir: string, into: string[]): void {
  if (!fs.existsSync(dir)) return;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".") || SKIPPED_DIR_NAMES.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) collectFiles(full, into);
    else if (entry.isFile() && SOURCE_FILE_PATTERN.test(entry.name)) into.push(full);
  }
}

/**
 * Line (1-based) of a key path in a JSON text (`["exports", "./testing", "types"]`), found by searching each key
 * after the previous one; good enough to point a reader at the spot. Returns 1 when the first key is missing.
 */
export function lineOfJsonPath(text: string, keys: readonly string[]): number {
  let position = -1;
  for (const key of keys) {
    const found = text.indexOf(JSON.stringify(key), Math.max(position, 0));
    if (found < 0) break;
    position = found;
  }
  return position < 0 ? 1 : text.slice(0, position).split("\n").length;
}
