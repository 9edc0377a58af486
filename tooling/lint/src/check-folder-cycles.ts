// Folder cycles inside one package: folder A imports from folder B while B, directly or through other folders,
// imports from A. A folder is a first-level directory of `src/` (everything below it belongs to it); the files
// directly in `src/` form the folder `src`. Only shipped files count (tests, test/ and bench/ are leaves of the
// graph), and type-only imports count too: a folder's types are part of what it offers. Every elementary cycle not
// in the package's allowance list is one error; allowances that no longer match a cycle are returned so the list
// can only shrink. Reads nothing from disk; the caller supplies the file-level import edges.
import path from "node:path";
import { findElementaryCycles } from "./elementary-cycles.js";
import type { Violation } from "./report.js";

/** One resolved import between two files of the same package. */
export interface FileImportEdge {
  readonly target: string;
  /** 1-based line of the import in the importing file. */
  readonly line: number;
}

/** One package to check: its directory, its file-level import edges and its allowed folder cycles. */
export interface FolderCycleInput {
  /** Absolute package directory. */
  readonly packageDir: string;
  /** Import edges by absolute importing file; files outside `src/` or that are dev files are ignored. */
  readonly edges: ReadonlyMap<string, readonly FileImportEdge[]>;
  /** Which package-relative files are dev-only (tests); they are left out of the folder graph. */
  readonly isDevFile: (relativePath: string) => boolean;
  /** Cycles tolerated for now, written `src/a -> src/b -> src/a` (any rotation). */
  readonly allowed: readonly string[];
}

/** The folder cycles of one package that are not allowed, and the allowances that matched nothing. */
export interface FolderCycleResult {
  readonly violations: Violation[];
  /** Entries of `allowed` that match no cycle of the package any more. */
  readonly unusedAllowances: string[];
}

/** At most this many cycles are listed per package; a tangle that large is reported as such. */
const CYCLE_LIMIT = 1000;

/** The folder a package-relative file belongs to (`src` or `src/<first directory>`), or undefined outside `src/`. */
export function folderOf(relativePath: string): string | undefined {
  const parts = relativePath.split("/");
  if (parts[0] !== "src" || parts.length < 2) return undefined;
  return parts.length === 2 ? "src" : `src/${parts[1]!}`;
}

/**
 * Writes a cycle in its canonical form: the hop list rotated to start at its smallest folder, closed, joined with
 * ` -> `. Throws on text that is not a closed path.
 */
export function canonicalFolderCycle(cycle: string): string {
  const hops = cycle.split("->").map((hop) => hop.trim());
  if (hops.length < 2 || hops[0] !== hops[hops.length - 1] || hops.some((hop) => hop === "")) {
    throw new Error(`'${cycle}' is not a closed folder path like 'src/a -> src/b -> src/a'`);
  }
  const open = hops.slice(0, -1);
  const start = open.indexOf([...open].sort()[0]!);
  const rotated = [...open.slice(start), ...open.slice(0, start)];
  return [...rotated, rotated[0]!].join(" -> ");
}

/** Reports the folder cycles of one package that its allowance list does not name. */
export function checkFolderCycles(input: FolderCycleInput): FolderCycleResult {
  const examples = folderEdges(input);
  const folders = [...new Set([...examples.keys()].flatMap((key) => key.split("\n")))].sort();
  const successors = (folder: string): string[] =>
    [...examples.keys()].filter((key) => key.startsWith(`${folder}\n`)).map((key) => key.split("\n")[1]!);
  const { cycles, truncated } = findElementaryCycles(folders, successors, CYCLE_LIMIT);

  const allowed = new Set(input.allowed.map(canonicalFolderCycle));
  const seen = new Set<string>();
  const violations: Violation[] = [];
  for (const cycle of cycles) {
    const text = cycle.join(" -> ");
    seen.add(text);
    if (allowed.has(text)) continue;
    const hops = cycle.slice(0, -1).map((folder, index) => examples.get(`${folder}\n${cycle[index + 1]!}`)!);
    const via = hops.map((hop) => `${relative(input, hop.file)}:${hop.line} imports ${relative(input, hop.target)}`);
    violations.push({
      file: hops[0]!.file,
      line: hops[0]!.line,
      rule: "no-folder-cycle",
      message: `folder cycle: ${text} (${via.join("; ")})`,
      severity: "error",
    });
  }
  if (truncated) {
    violations.push({
      file: path.join(input.packageDir, "package.json"),
      line: 1,
      rule: "no-folder-cycle",
      message: `more than ${CYCLE_LIMIT} folder cycles; only the first ${CYCLE_LIMIT} are listed`,
      severity: "error",
    });
  }
  const unusedAllowances = truncated ? [] : [...allowed].filter((cycle) => !seen.has(cycle));
  return { violations, unusedAllowances };
}

interface ExampleImport {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** One example import per folder edge (`from\nto`): the first by file path, then line. */
function folderEdges(input: FolderCycleInput): Map<string, ExampleImport> {
  const examples = new Map<string, ExampleImport>();
  for (const file of [...input.edges.keys()].sort()) {
    const from = shippedFolderOf(input, file);
    if (from === undefined) continue;
    for (const edge of [...input.edges.get(file)!].sort((left, right) => left.line - right.line)) {
      const to = shippedFolderOf(input, edge.target);
      if (to === undefined || to === from) continue;
      const key = `${from}\n${to}`;
      if (!examples.has(key)) examples.set(key, { file, line: edge.line, target: edge.target });
    }
  }
  return examples;
}

function shippedFolderOf(input: FolderCycleInput, file: string): string | undefined {
  const relativePath = relative(input, file);
  return input.isDevFile(relativePath) ? undefined : folderOf(relativePath);
}

function relative(input: FolderCycleInput, file: string): string {
  return path.relative(input.packageDir, file).split(path.sep).join("/");
}
