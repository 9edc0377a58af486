// A process that takes the data-directory lock of its first argument, prints `locked <pid>` and waits to be killed
// (the lock tests SIGKILL it). Run with `node --conditions=@nereus/source --import tsx`.
import { lockDataDir } from "../../src/storage/data-dir-lock.js";

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error("usage: hold-data-dir-lock <data-dir>");
lockDataDir(dataDir);
process.stdout.write(`locked ${String(process.pid)}\n`);
setInterval(() => undefined, 60_000);
