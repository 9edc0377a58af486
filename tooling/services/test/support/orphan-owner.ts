// Test helper process: starts etcd through the library with a state file, then idles until it is killed.
// Used to prove the watchdog stops services whose owner died without stopping them.
import { startServices } from "../../src/index.js";

const stateFile = process.argv[2];
if (stateFile === undefined) throw new Error("usage: orphan-owner.ts <state-file>");
await startServices({ etcd: true, stateFile });
process.stdout.write("ready\n");
setInterval(() => undefined, 60_000);
