// Publishing rules for every workspace package that is not private (docs/releasing.md): where it comes from
// (`repository` with its directory, `homepage`, `bugs`), the root LICENSE shipped beside it, a tight `files` list,
// `publishConfig.exports` equal to `exports` without the workspace-only source condition (so no published condition
// points at unpublished sources), public access, and `workspace:^` ranges to the workspace packages it needs at run
// time (never to a private one). Reads manifests and LICENSE files; packs nothing (publint and attw check the tarball).
import fs from "node:fs";
import path from "node:path";
import type { Violation } from "./report.js";
import { lineOfJsonPath, type Workspace, type WorkspacePackage } from "./workspace.js";

/** The export condition that resolves workspace packages to their TypeScript sources; never published. */
const SOURCE_CONDITION = "@nereus/source";

/** What `files` may list: build output, executables, reference docs and the three files every package ships. */
const ALLOWED_FILES: ReadonlySet<string> = new Set(["dist", "bin", "docs", "README.md", "LICENSE", "CHANGELOG.md"]);
const REQUIRED_FILES = ["dist", "README.md", "LICENSE", "CHANGELOG.md"] as const;
const RUNTIME_SECTIONS = ["dependencies", "peerDependencies", "optionalDependencies"] as const;
/** The range a published package gives a workspace package it needs: pnpm publishes it as `^<version>`. */
const WORKSPACE_RANGE = "workspace:^";

interface PublishManifest {
  readonly license?: unknown;
  readonly repository?: { readonly type?: unknown; readonly url?: unknown; readonly directory?: unknown };
  readonly homepage?: unknown;
  readonly bugs?: { readonly url?: unknown };
  readonly files?: unknown;
  readonly exports?: unknown;
  readonly publishConfig?: { readonly access?: unknown; readonly exports?: unknown };
}

/** Violations of the publishing rules by the workspace's non-private packages. */
export function checkPublishManifests(workspace: Workspace): Violation[] {
  const published = workspace.packages.filter((entry) => entry.manifest.private !== true);
  const licenseFile = path.join(workspace.root, "LICENSE");
  const license = fs.existsSync(licenseFile) ? fs.readFileSync(licenseFile) : undefined;
  const violations: Violation[] = [];
  if (published.length > 0 && license === undefined) {
    violations.push(error(licenseFile, 1, "publish/license", "the repository has no LICENSE file at its root"));
  }
  const repositoryUrls = new Set<string>();
  for (const entry of published) {
    const report = (keys: readonly string[], rule: string, message: string) =>
      violations.push(
        error(path.join(entry.dir, "package.json"), lineOfJsonPath(entry.manifestText, keys), rule, message),
      );
    const manifest = entry.manifest as PublishManifest;
    const url = checkOrigin(entry, manifest, report);
    if (url !== undefined) repositoryUrls.add(url);
    checkLicense(entry, manifest, license, report);
    checkFiles(manifest, report);
    checkPublishedExports(manifest, report);
    checkRuntimeRanges(entry, workspace, report);
  }
  if (repositoryUrls.size > 1) {
    const first = published[0]!;
    violations.push(
      error(
        path.join(first.dir, "package.json"),
        lineOfJsonPath(first.manifestText, ["repository"]),
        "publish/repository",
        `published packages name different repositories: ${[...repositoryUrls].sort().join(", ")}`,
      ),
    );
  }
  return violations;
}

type Report = (keys: readonly string[], rule: string, message: string) => void;

/** `repository` (git, with this package's directory), `homepage` and `bugs.url`; returns the repository URL. */
function checkOrigin(entry: WorkspacePackage, manifest: PublishManifest, report: Report): string | undefined {
  const repository = manifest.repository;
  if (typeof repository !== "object" || typeof repository.url !== "string" || repository.type !== "git") {
    report(["repository"], "publish/repository", 'needs "repository": { "type": "git", "url", "directory" }');
    return undefined;
  }
  if (repository.directory !== entry.relativeDir) {
    report(["repository", "directory"], "publish/repository", `repository.directory must be "${entry.relativeDir}"`);
  }
  if (typeof manifest.homepage !== "string") report(["name"], "publish/homepage", 'needs a "homepage"');
  if (typeof manifest.bugs?.url !== "string") report(["name"], "publish/bugs", 'needs "bugs": { "url" }');
  return repository.url;
}

function checkLicense(entry: WorkspacePackage, manifest: PublishManifest, license: Buffer | undefined, report: Report) {
  if (manifest.license !== "Apache-2.0") report(["license"], "publish/license", 'license must be "Apache-2.0"');
  if (license === undefined) return;
  const own = path.join(entry.dir, "LICENSE");
  if (!fs.existsSync(own)) {
    report(["license"], "publish/license", "LICENSE is missing beside package.json (copy the root LICENSE)");
  } else if (!fs.readFileSync(own).equals(license)) {
    report(["license"], "publish/license", "LICENSE differs from the root LICENSE (copy it again)");
  }
}

function checkFiles(manifest: PublishManifest, report: Report): void {
  const files = manifest.files;
  if (!Array.isArray(files)) {
    report(["name"], "publish/files", `needs "files": [${REQUIRED_FILES.map((file) => `"${file}"`).join(", ")}]`);
    return;
  }
  for (const file of files) {
    if (typeof file !== "string" || !ALLOWED_FILES.has(file)) {
      report(["files"], "publish/files", `"files" may list only ${[...ALLOWED_FILES].join(", ")}; got ${String(file)}`);
    }
  }
  for (const required of REQUIRED_FILES) {
    if (!files.includes(required)) report(["files"], "publish/files", `"files" must list ${required}`);
  }
}

/** `publishConfig.exports` is `exports` without the source condition, and every target is published. */
function checkPublishedExports(manifest: PublishManifest, report: Report): void {
  if (manifest.publishConfig?.access !== "public") {
    report(["publishConfig"], "publish/access", 'needs "publishConfig": { "access": "public" }');
  }
  if (manifest.exports === undefined) return;
  const expected = withoutCondition(manifest.exports, SOURCE_CONDITION);
  const published = manifest.publishConfig?.exports;
  if (JSON.stringify(published) !== JSON.stringify(expected)) {
    report(
      ["publishConfig", "exports"],
      "publish/exports",
      `publishConfig.exports must be exports without the "${SOURCE_CONDITION}" condition: ${JSON.stringify(expected)}`,
    );
    return;
  }
  const files = Array.isArray(manifest.files) ? manifest.files.filter((file) => typeof file === "string") : [];
  for (const target of exportTargets(expected)) {
    const first = target.replace(/^\.\//, "").split("/")[0] ?? "";
    if (target !== "./package.json" && !files.includes(first)) {
      report(["publishConfig", "exports"], "publish/exports", `export target ${target} is outside "files"`);
    }
  }
}

/** Runtime dependencies on workspace packages use `workspace:^` and never name a private package. */
function checkRuntimeRanges(entry: WorkspacePackage, workspace: Workspace, report: Report): void {
  for (const section of RUNTIME_SECTIONS) {
    for (const [name, range] of Object.entries(entry.manifest[section] ?? {})) {
      const target = workspace.byName.get(name);
      if (target === undefined) continue;
      if (target.manifest.private === true) {
        report([section, name], "publish/private-dependency", `${name} is private: a published package cannot need it`);
      } else if (range !== WORKSPACE_RANGE) {
        report(
          [section, name],
          "publish/workspace-range",
          `${name}: "${range}" publishes as an exact or open version; use "${WORKSPACE_RANGE}" (a caret range)`,
        );
      }
    }
  }
}

/** A copy of an exports map without `condition` at any depth. */
function withoutCondition(value: unknown, condition: string): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== condition)
      .map(([key, child]) => [key, withoutCondition(child, condition)]),
  );
}

function exportTargets(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value !== "object" || value === null) return [];
  return Object.values(value).flatMap(exportTargets);
}

function error(file: string, line: number, rule: string, message: string): Violation {
  return { file, line, rule, message, severity: "error" };
}
