// Builds native/segment-map.cc into native/build/segment_map.node (the `install` script of @nereus/object-wal):
// the memory maps that serve the filesystem store's reads of recent segments (src/segments/segment-maps.ts). It
// needs a C++ compiler (`$CXX`, else `c++`) and Node's headers (`<node>/include/node/node.h`, or
// `$npm_config_nodedir/include/node`). When either is missing, or the platform has no mmap (Windows), it says so
// and exits 0: the store then reads those segments with pread, as it did before maps existed.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(packageRoot, "native", "segment-map.cc");
const outputDir = path.join(packageRoot, "native", "build");
const output = path.join(outputDir, "segment_map.node");

function skip(reason) {
  process.stdout.write(`@nereus/object-wal: native segment maps not built (${reason}); segment reads use pread\n`);
  process.exit(0);
}

if (process.platform === "win32") skip("no mmap on Windows");
const headerDirs = [
  path.resolve(path.dirname(process.execPath), "..", "include", "node"),
  ...(process.env.npm_config_nodedir ? [path.join(process.env.npm_config_nodedir, "include", "node")] : []),
];
const headers = headerDirs.find((dir) => existsSync(path.join(dir, "node.h")));
if (headers === undefined) skip(`node.h not found in ${headerDirs.join(" or ")}`);

const compiler = process.env.CXX || "c++";
const temporary = `${output}.${String(process.pid)}.tmp`;
const args = ["-O2", "-std=c++17", "-Wall", "-fPIC", "-shared", "-DNODE_GYP_MODULE_NAME=segment_map", `-I${headers}`];
if (process.platform === "darwin") args.push("-undefined", "dynamic_lookup");
args.push("-o", temporary, source);
mkdirSync(outputDir, { recursive: true });
try {
  execFileSync(compiler, args, { stdio: ["ignore", "inherit", "inherit"] });
  renameSync(temporary, output);
} catch (error) {
  rmSync(temporary, { force: true });
  skip(`${compiler} failed: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
}
process.stdout.write(`@nereus/object-wal: built ${path.relative(packageRoot, output)}\n`);
