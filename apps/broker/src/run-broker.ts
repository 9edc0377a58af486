// The broker side of `nereus` (every command but `admin`): reads the command line (`--help` and `--version` print
// and exit), then the configuration (flags > NEREUS_* > --config file > defaults), starts the broker and shuts it down
// gracefully on SIGTERM/SIGINT (a second signal exits at once). A bad command line prints one line —
// `nereus: <problem> (see nereus --help)` — and exits 2; start-up failures print `nereus: cannot start: <reason>`
// and exit 2 (bad configuration) or 1. Once serving, an error that escapes every request boundary (a bug, never
// input: requests are answered or their connection closed where they fail) is logged with its stack and the broker
// keeps serving; storage state is guarded by its own compare-and-swap commits, not by the process dying.
import { brokerUsage } from "./cli/broker-usage.js";
import { brokerVersion } from "./cli/broker-version.js";
import { type CommandLine, UsageError, parseCommandLine } from "./config/command-line.js";
import { ConfigError } from "./config/config-error.js";
import { loadBrokerConfig } from "./config/load-broker-config.js";
import { redactSecrets } from "./config/secret-fields.js";
import { PinoBrokerLogger } from "./logging/broker-logger.js";
import { startBroker } from "./start-broker.js";
import { StartupError, reasonOf } from "./errors/startup-error.js";

function fail(message: string, exitCode: number): never {
  process.stderr.write(`nereus: cannot start: ${message}\n`);
  process.exit(exitCode);
}

function readCommandLine(): CommandLine {
  try {
    return parseCommandLine(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`nereus: ${error.message} (see nereus --help)\n`);
    process.exit(2);
  }
}

/** Runs `nereus` with the process's command line until the broker stops (or prints and returns). */
export async function runBroker(): Promise<void> {
  const commandLine = readCommandLine();
  if (commandLine.command === "help") {
    process.stdout.write(`${brokerUsage()}\n`);
    return;
  }
  if (commandLine.command === "version") {
    process.stdout.write(`nereus ${brokerVersion()}\n`);
    return;
  }
  let loaded;
  try {
    // Under npm/pnpm scripts (`npm start` at the repository root) the script runs in apps/broker; INIT_CWD is where
    // the user typed the command, which is where relative paths (./.nereus-data, --config) are meant from.
    loaded = loadBrokerConfig({
      commandLine,
      cwd: process.env.INIT_CWD !== undefined && process.env.INIT_CWD !== "" ? process.env.INIT_CWD : process.cwd(),
    });
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message, 2);
    throw error;
  }
  if (loaded.printConfig) {
    process.stdout.write(`${JSON.stringify(redactSecrets(loaded.config), null, 2)}\n`);
    return;
  }
  const logger = new PinoBrokerLogger({ level: loaded.config.log.level, format: loaded.config.log.format });
  let broker;
  try {
    broker = await startBroker(loaded.config, { logger });
  } catch (error) {
    if (error instanceof StartupError) fail(error.message, error.exitCode);
    fail(reasonOf(error), 1);
  }
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    signals += 1;
    if (signals > 1) {
      logger.warn("second signal: exiting without finishing the shutdown", { signal });
      process.exit(130);
    }
    void broker.close(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error("shutdown failed", { error });
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  process.on("unhandledRejection", (error) => logger.error("unhandled rejection", { error }));
  process.on("uncaughtException", (error, origin) => logger.error("uncaught exception", { error, origin }));
}
