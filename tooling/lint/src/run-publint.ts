// Runs publint on a publishable package whose dist/ exists and turns its messages into violations pointing at
// package.json. Lint never builds: a package without dist/ (or a private one) is skipped with a reason.
import fs from "node:fs";
import path from "node:path";
import type { Violation } from "./report.js";
import { lineOfJsonPath, type PackageManifest } from "./workspace.js";

export type PublintOutcome =
  | { readonly status: "skipped"; readonly reason: string }
  | { readonly status: "checked"; readonly violations: Violation[] };

export async function runPublint(packageDir: string): Promise<PublintOutcome> {
  const manifestFile = path.join(packageDir, "package.json");
  const manifestText = fs.readFileSync(manifestFile, "utf8");
  const manifest = JSON.parse(manifestText) as PackageManifest;
  if (manifest.private === true) return { status: "skipped", reason: "private package" };
  if (!fs.existsSync(path.join(packageDir, "dist"))) {
    return { status: "skipped", reason: "dist/ is missing (lint does not build; run the build first)" };
  }
  // Loaded only when needed: most lint runs skip publint.
  const { publint } = await import("publint");
  const { formatMessage } = await import("publint/utils");
  const { messages, pkg } = await publint({ pkgDir: packageDir, level: "warning", pack: "auto" });
  const violations = messages.map((message): Violation => ({
    file: manifestFile,
    line: lineOfJsonPath(manifestText, message.path),
    rule: `publint/${message.code}`,
    message: formatMessage(message, pkg, { color: false }) ?? message.code,
    severity: message.type === "error" ? "error" : "warning",
  }));
  return { status: "checked", violations };
}
