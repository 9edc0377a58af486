// Enforces the import rules of docs/architecture.md §2 (as written in rules.ts) over the whole workspace or one
// package: direction between workspace packages, protocol codec purity, no protocol libraries in the storage
// layer, no app imports, no deep imports, no relative escapes, declared dependencies, and no cycles between
// packages (package.json), between files of a package or between folders of a package (check-folder-cycles.ts).
// Reads files; writes nothing; formats nothing.
import fs from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { checkFolderCycles } from "./check-folder-cycles.js";
import { extractImports, type ImportRecord } from "./extract-imports.js";
import { findCycles } from "./find-cycles.js";
import { sortViolations, type Violation } from "./report.js";
import {
  ALLOWED_FOLDER_CYCLES,
  DEV_FILE_PATTERN,
  LIBRARY_ROLES,
  PACKAGE_RULES,
  PROTOCOL_CODEC_MAY_IMPORT,
  RULES_BY_FOLDER,
  TESTING_SOURCE_DIR,
  TESTING_SUBPATH,
  UNLISTED_RULE,
  type PackageRule,
} from "./rules.js";
import {
  findWorkspaceRoot,
  lineOfJsonPath,
  listPackageFiles,
  loadWorkspace,
  type Workspace,
  type WorkspacePackage,
} from "./workspace.js";

export interface CheckImportsOptions {
  /** Any directory inside the workspace; the root is the nearest ancestor with pnpm-workspace.yaml. */
  readonly cwd: string;
  /**
   * Check only this package directory. Package-level findings (declared dependencies, package cycles) are then
   * limited to those that involve it. Omit to check the whole workspace.
   */
  readonly packageDir?: string;
  /**
   * Folder cycles tolerated per package name, as `src/a -> src/b -> src/a`; defaults to
   * {@link ALLOWED_FOLDER_CYCLES}. Any other folder cycle is an error.
   */
  readonly allowedFolderCycles?: Readonly<Record<string, readonly string[]>>;
}

export interface CheckImportsResult {
  readonly violations: Violation[];
  readonly packagesChecked: number;
  readonly filesChecked: number;
  /** Allowed folder cycles (`@nereus/x: src/a -> src/b -> src/a`) that no longer exist in the checked packages. */
  readonly unusedFolderCycleAllowances: string[];
}

/** Where a file sits in its package, which decides what it may import. */
type FileKind = "production" | "testing-support" | "dev";

const DEPENDENCY_SECTIONS = ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"] as const;
const PRODUCTION_SECTIONS = ["dependencies", "peerDependencies", "optionalDependencies"] as const;

export function ruleFor(workspacePackage: WorkspacePackage): PackageRule {
  return PACKAGE_RULES[workspacePackage.name] ?? RULES_BY_FOLDER[workspacePackage.folder] ?? UNLISTED_RULE;
}

export function checkImports(options: CheckImportsOptions): CheckImportsResult {
  const workspace = loadWorkspace(findWorkspaceRoot(options.packageDir ?? options.cwd));
  let scope = workspace.packages;
  if (options.packageDir !== undefined) {
    const wanted = path.resolve(options.packageDir);
    const only = workspace.packages.find((candidate) => candidate.dir === wanted);
    if (!only) throw new Error(`${wanted} is not a package of the workspace at ${workspace.root}`);
    scope = [only];
  }

  const allowedFolderCycles = options.allowedFolderCycles ?? ALLOWED_FOLDER_CYCLES;
  const violations: Violation[] = [];
  const unusedFolderCycleAllowances: string[] = [];
  let filesChecked = 0;
  for (const workspacePackage of scope) {
    violations.push(...checkManifest(workspace, workspacePackage));
    const result = checkPackageFiles(workspace, workspacePackage, allowedFolderCycles[workspacePackage.name] ?? []);
    violations.push(...result.violations);
    unusedFolderCycleAllowances.push(...result.unusedAllowances.map((cycle) => `${workspacePackage.name}: ${cycle}`));
    filesChecked += result.filesChecked;
  }
  const scopeNames = new Set(scope.map((entry) => entry.name));
  for (const { violation, packages } of checkPackageCycles(workspace)) {
    if (packages.some((name) => scopeNames.has(name))) violations.push(violation);
  }
  return {
    violations: sortViolations(violations),
    packagesChecked: scope.length,
    filesChecked,
    unusedFolderCycleAllowances,
  };
}

// ---------------------------------------------------------------------------------------------- package level

function checkManifest(workspace: Workspace, workspacePackage: WorkspacePackage): Violation[] {
  const violations: Violation[] = [];
  const manifestFile = path.join(workspacePackage.dir, "package.json");
  const rule = ruleFor(workspacePackage);
  if (rule.role === "unlisted") {
    violations.push({
      file: manifestFile,
      line: lineOfJsonPath(workspacePackage.manifestText, ["name"]),
      rule: "unlisted-package",
      message: `${workspacePackage.name} has no import rule; add it with its role to tooling/lint/src/rules.ts`,
      severity: "error",
    });
  }
  for (const section of DEPENDENCY_SECTIONS) {
    for (const dependency of Object.keys(workspacePackage.manifest[section] ?? {})) {
      const target = workspace.byName.get(dependency);
      if (!target || target === workspacePackage) continue;
      const verdict = workspaceImportVerdict(
        workspacePackage,
        rule,
        target,
        section === "devDependencies" ? "dev" : "production",
      );
      if (verdict) {
        violations.push({
          file: manifestFile,
          line: lineOfJsonPath(workspacePackage.manifestText, [section, dependency]),
          rule: "forbidden-dependency",
          message: `${section} lists ${dependency}: ${verdict.message}`,
          severity: "error",
        });
      }
    }
  }
  return violations;
}

function checkPackageCycles(workspace: Workspace): { violation: Violation; packages: readonly string[] }[] {
  const names = workspace.packages.map((entry) => entry.name);
  const successors = (name: string): string[] => {
    const manifest = workspace.byName.get(name)!.manifest;
    return DEPENDENCY_SECTIONS.flatMap((section) => Object.keys(manifest[section] ?? {})).filter(
      (dependency) => dependency !== name && workspace.byName.has(dependency),
    );
  };
  return findCycles(names, successors).map((cycle) => {
    const first = workspace.byName.get(cycle[0]!)!;
    const second = cycle[1]!;
    const section = DEPENDENCY_SECTIONS.find((candidate) => first.manifest[candidate]?.[second] !== undefined);
    const violation: Violation = {
      file: path.join(first.dir, "package.json"),
      line: lineOfJsonPath(first.manifestText, [section ?? "dependencies", second]),
      rule: "no-package-cycle",
      message: `package dependency cycle: ${cycle.join(" -> ")}`,
      severity: "error",
    };
    return { violation, packages: cycle };
  });
}

interface Verdict {
  readonly rule: string;
  readonly message: string;
}

/** Why `from` may not use workspace package `target` in a file of the given kind, or undefined if it may. */
function workspaceImportVerdict(
  from: WorkspacePackage,
  rule: PackageRule,
  target: WorkspacePackage,
  kind: FileKind,
): Verdict | undefined {
  const targetRule = ruleFor(target);
  if (targetRule.role === "app") {
    return { rule: "no-app-import", message: `${target.name} is an app (${target.relativeDir}); nothing imports apps` };
  }
  if (targetRule.role === "tooling") {
    if (rule.role === "tooling" || kind === "dev") return undefined;
    return {
      rule: "no-dev-tooling-import",
      message: `${target.name} is dev tooling; only tests, benchmarks and config files may use it`,
    };
  }
  if (LIBRARY_ROLES.has(targetRule.role)) {
    if (rule.mayImport === "all-libraries" || rule.mayImport.includes(target.name)) return undefined;
    return { rule: "import-direction", message: `${from.name} may not import ${target.name}: ${rule.reason}` };
  }
  return undefined;
}

// ------------------------------------------------------------------------------------------------- file level

interface FileEdge {
  readonly target: string;
  readonly line: number;
  /** Erased at runtime: counts for folder cycles, not for file cycles. */
  readonly typeOnly: boolean;
}

function checkPackageFiles(
  workspace: Workspace,
  workspacePackage: WorkspacePackage,
  allowedFolderCycles: readonly string[],
): { violations: Violation[]; filesChecked: number; unusedAllowances: string[] } {
  const rule = ruleFor(workspacePackage);
  const files = listPackageFiles(workspacePackage.dir);
  const fileSet = new Set(files);
  const protocolDir = rule.protocolDir === undefined ? undefined : path.join(workspacePackage.dir, rule.protocolDir);
  const violations: Violation[] = [];
  const edges = new Map<string, FileEdge[]>();

  for (const file of files) {
    const relative = toPosix(path.relative(workspacePackage.dir, file));
    const kind = fileKind(relative);
    const inProtocol = protocolDir !== undefined && kind !== "dev" && isInside(protocolDir, file);
    const fileEdges: FileEdge[] = [];
    edges.set(file, fileEdges);
    const report = (record: ImportRecord, ruleId: string, message: string): void => {
      violations.push({ file, line: record.line, rule: ruleId, message, severity: "error" });
    };

    for (const record of extractImports(file, fs.readFileSync(file, "utf8"))) {
      const specifier = record.specifier;

      if (isPathSpecifier(specifier)) {
        const target = path.resolve(path.dirname(file), specifier);
        if (!isInside(workspacePackage.dir, target)) {
          report(
            record,
            "no-relative-escape",
            `'${specifier}' leaves ${workspacePackage.name}; import other packages by name`,
          );
          continue;
        }
        if (inProtocol && !isInside(protocolDir, target)) {
          report(record, "protocol-purity", `'${specifier}' is outside ${rule.protocolDir}; ${protocolRuleText()}`);
        }
        const resolved = resolveSourceFile(target, fileSet);
        if (resolved !== undefined) fileEdges.push({ target: resolved, line: record.line, typeOnly: record.typeOnly });
        continue;
      }

      if (specifier.startsWith("node:") || isBuiltin(specifier)) {
        if (inProtocol) report(record, "protocol-purity", `'${specifier}' is a Node.js builtin; ${protocolRuleText()}`);
        continue;
      }

      const { name, subpath } = splitBareSpecifier(specifier);
      const target = workspace.byName.get(name);
      if (target === undefined && name.startsWith("@nereus/")) {
        report(record, "unknown-workspace-package", `${name} is not a package of this workspace`);
        continue;
      }
      if (target === undefined) {
        const library = rule.forbiddenLibraries.find((entry) => matchesLibrary(specifier, entry));
        if (library !== undefined) {
          report(
            record,
            "no-protocol-library",
            `${workspacePackage.name} is protocol-neutral and may not import '${specifier}'`,
          );
        } else if (inProtocol && !PROTOCOL_CODEC_MAY_IMPORT.includes(specifier)) {
          report(record, "protocol-purity", `'${specifier}' is an external library; ${protocolRuleText()}`);
        }
        continue;
      }

      if (inProtocol && !PROTOCOL_CODEC_MAY_IMPORT.includes(specifier)) {
        report(record, "protocol-purity", `'${specifier}' is not allowed here; ${protocolRuleText()}`);
      }
      const exported = exportedSubpaths(target);
      if (!isExportedSubpath(subpath, exported)) {
        report(
          record,
          "no-deep-import",
          `'${specifier}' is not exported by ${name} (exports: ${exported.length > 0 ? exported.join(", ") : "none"})`,
        );
      }
      const verdict =
        target === workspacePackage ? undefined : workspaceImportVerdict(workspacePackage, rule, target, kind);
      if (verdict) {
        report(record, verdict.rule, verdict.message);
        continue;
      }
      if (isTestingSubpath(subpath) && kind === "production" && rule.role !== "tooling") {
        report(
          record,
          "no-testing-import-in-production",
          `'${specifier}' ships fakes and conformance suites; import it from tests or ${TESTING_SOURCE_DIR}/ only`,
        );
      }
      if (target === workspacePackage) {
        const resolved = resolveSelfImport(workspacePackage, subpath, fileSet);
        if (resolved !== undefined) fileEdges.push({ target: resolved, line: record.line, typeOnly: record.typeOnly });
        continue;
      }
      const declaredError = undeclaredDependency(workspacePackage, name, kind);
      if (declaredError !== undefined) report(record, "undeclared-dependency", declaredError);
    }
  }

  const runtimeTargets = (file: string): string[] =>
    (edges.get(file) ?? []).filter((edge) => !edge.typeOnly).map((edge) => edge.target);
  const cycles = findCycles(files, runtimeTargets);
  for (const cycle of cycles) {
    const from = cycle[0]!;
    const line = edges.get(from)?.find((edge) => !edge.typeOnly && edge.target === cycle[1])?.line ?? 1;
    const readable = cycle.map((file) => toPosix(path.relative(workspacePackage.dir, file))).join(" -> ");
    violations.push({
      file: from,
      line,
      rule: "no-file-cycle",
      message: `import cycle: ${readable}`,
      severity: "error",
    });
  }
  const folderCycles = checkFolderCycles({
    packageDir: workspacePackage.dir,
    edges,
    isDevFile: (relativePath) => fileKind(relativePath) === "dev",
    allowed: allowedFolderCycles,
  });
  violations.push(...folderCycles.violations);
  return { violations, filesChecked: files.length, unusedAllowances: folderCycles.unusedAllowances };
}

function protocolRuleText(): string {
  return `protocol codecs import only files inside their folder and ${PROTOCOL_CODEC_MAY_IMPORT.join(", ")} (bytes in, plain objects out)`;
}

function undeclaredDependency(from: WorkspacePackage, name: string, kind: FileKind): string | undefined {
  const inProduction = PRODUCTION_SECTIONS.some((section) => from.manifest[section]?.[name] !== undefined);
  const inDev = from.manifest.devDependencies?.[name] !== undefined;
  if (inProduction || (kind === "dev" && inDev)) return undefined;
  if (inDev) return `${name} is declared only in devDependencies but this file ships with ${from.name}`;
  return `${name} is not declared in ${from.relativeDir}/package.json`;
}

export function fileKind(relativePath: string): FileKind {
  if (DEV_FILE_PATTERN.test(relativePath)) return "dev";
  if (relativePath.startsWith(`${TESTING_SOURCE_DIR}/`)) return "testing-support";
  return "production";
}

// ----------------------------------------------------------------------------------------- specifier helpers

function isPathSpecifier(specifier: string): boolean {
  return specifier === "." || specifier === ".." || /^\.\.?\//.test(specifier) || specifier.startsWith("/");
}

function splitBareSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split("/");
  const length = specifier.startsWith("@") ? 2 : 1;
  const name = parts.slice(0, length).join("/");
  const rest = parts.slice(length);
  return { name, subpath: rest.length === 0 ? "." : `./${rest.join("/")}` };
}

function matchesLibrary(specifier: string, library: string): boolean {
  if (library.endsWith("/")) return specifier.startsWith(library);
  return specifier === library || specifier.startsWith(`${library}/`);
}

function isTestingSubpath(subpath: string): boolean {
  return subpath === TESTING_SUBPATH || subpath.startsWith(`${TESTING_SUBPATH}/`);
}

/** Subpaths of a package's `exports` map; a package without one exports only its root. */
function exportedSubpaths(workspacePackage: WorkspacePackage): string[] {
  const exportsField = workspacePackage.manifest.exports;
  if (exportsField === undefined || exportsField === null) return ["."];
  if (typeof exportsField !== "object" || Array.isArray(exportsField)) return ["."];
  const keys = Object.keys(exportsField);
  return keys.some((key) => key.startsWith(".")) ? keys.filter((key) => key.startsWith(".")) : ["."];
}

function isExportedSubpath(subpath: string, exported: readonly string[]): boolean {
  return exported.some((key) => {
    if (!key.includes("*")) return key === subpath;
    const [prefix, suffix] = key.split("*", 2) as [string, string];
    return subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length > prefix.length + suffix.length;
  });
}

/** The source file a self-reference (`@nereus/x/testing` inside @nereus/x) loads, through the source condition. */
function resolveSelfImport(
  workspacePackage: WorkspacePackage,
  subpath: string,
  files: ReadonlySet<string>,
): string | undefined {
  const exportsField = workspacePackage.manifest.exports;
  let entry: unknown = exportsField;
  if (exportsField !== null && typeof exportsField === "object" && !Array.isArray(exportsField)) {
    const map = exportsField as Record<string, unknown>;
    entry = Object.keys(map).some((key) => key.startsWith(".")) ? map[subpath] : subpath === "." ? map : undefined;
  }
  const target = pickExportTarget(entry);
  return target === undefined ? undefined : resolveSourceFile(path.resolve(workspacePackage.dir, target), files);
}

function pickExportTarget(entry: unknown): string | undefined {
  if (typeof entry === "string") return entry;
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return undefined;
  const conditions = entry as Record<string, unknown>;
  for (const condition of ["@nereus/source", "import", "default"]) {
    const target = pickExportTarget(conditions[condition]);
    if (target !== undefined) return target;
  }
  return undefined;
}

const SOURCE_FOR_JS: Readonly<Record<string, readonly string[]>> = {
  ".js": [".ts", ".tsx"],
  ".jsx": [".tsx"],
  ".mjs": [".mts"],
  ".cjs": [".cts"],
};
const APPENDED_EXTENSIONS = [".ts", ".tsx", ".mts", ".cts", ".d.ts", ".js", ".jsx", ".mjs", ".cjs"];

/** Maps a path as written in an import to one of the package's scanned files, the way TS "Bundler" would. */
function resolveSourceFile(target: string, files: ReadonlySet<string>): string | undefined {
  const extension = path.extname(target);
  const stem = target.slice(0, target.length - extension.length);
  const candidates = [
    target,
    ...(SOURCE_FOR_JS[extension] ?? []).map((replacement) => stem + replacement),
    ...APPENDED_EXTENSIONS.map((appended) => target + appended),
    ...APPENDED_EXTENSIONS.map((appended) => path.join(target, `index${appended}`)),
  ];
  return candidates.find((candidate) => files.has(candidate));
}

function isInside(dir: string, target: string): boolean {
  const relative = path.relative(dir, target);
  return relative === "" || (relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative));
}

function toPosix(file: string): string {
  return file.split(path.sep).join("/");
}
