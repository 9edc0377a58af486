// Builds one C++ file of a package into a Node addon at `<package root>/native/build/<name>.node`, against the
// running Node's own headers (the V8 API is not ABI-stable, so an addon is built by the Node that will load it; a
// Node upgrade needs a reinstall). Used by the install scripts of @nereus/core and @nereus/object-wal
// (`import { buildAddon } from "@nereus/core/build-addon"`). It needs a C++ compiler (`$CXX`, else `c++`) and
// Node's headers (`<node>/include/node/node.h`, or `$npm_config_nodedir/include/node`). When either is missing it
// says so and returns false: an install never fails for an addon, and the package keeps its portable code path
// (src/native/load-package-addon.ts reports which one a process uses).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * @param {{ packageRoot: string; source: string; name: string; label: string; fallback: string }} options
 *   `source` relative to `packageRoot`; `label` names the addon and `fallback` what the package does without it,
 *   in the message printed when it is not built.
 * @returns {boolean} whether the addon was built
 */
export function buildAddon({ packageRoot, source, name, label, fallback }) {
  const packageName = JSON.parse(readFileSync(path.join(packageRoot, "package.json"), "utf8")).name;
  const skip = (reason) => {
    process.stdout.write(`${packageName}: ${label} not built (${reason}); ${fallback}\n`);
    return false;
  };
  if (process.platform === "win32") return skip("not built on Windows");
  const headerDirs = [
    path.resolve(path.dirname(process.execPath), "..", "include", "node"),
    ...(process.env.npm_config_nodedir ? [path.join(process.env.npm_config_nodedir, "include", "node")] : []),
  ];
  const headers = headerDirs.find((dir) => existsSync(path.join(dir, "node.h")));
  if (headers === undefined) return skip(`node.h not found in ${headerDirs.join(" or ")}`);
  const outputDir = path.join(packageRoot, "native", "build");
  const output = path.join(outputDir, `${name}.node`);
  const compiler = process.env.CXX || "c++";
  const temporary = `${output}.${String(process.pid)}.tmp`;
  const args = ["-O2", "-std=c++17", "-Wall", "-fPIC", "-shared", `-DNODE_GYP_MODULE_NAME=${name}`, `-I${headers}`];
  if (process.platform === "darwin") args.push("-undefined", "dynamic_lookup");
  args.push("-o", temporary, path.join(packageRoot, source));
  mkdirSync(outputDir, { recursive: true });
  try {
    execFileSync(compiler, args, { stdio: ["ignore", "inherit", "inherit"] });
    renameSync(temporary, output);
  } catch (error) {
    rmSync(temporary, { force: true });
    return skip(`${compiler} failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
  }
  process.stdout.write(`${packageName}: built ${path.relative(packageRoot, output)}\n`);
  return true;
}
