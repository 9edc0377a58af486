// `nereus` (also installed as `nereus-broker`): `nereus admin …` reads a running broker's admin API
// (cli/admin-command.ts) without loading the broker; every other command line runs the broker (run-broker.ts).
import process from "node:process";

if (process.argv[2] === "admin") {
  const { runAdminCommand } = await import("./cli/admin-command.js");
  process.exitCode = await runAdminCommand(process.argv.slice(3), {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
  });
} else {
  const { runBroker } = await import("./run-broker.js");
  await runBroker();
}
