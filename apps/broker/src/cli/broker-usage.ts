// The `nereus --help` text: the commands, the general options, every broker setting with its environment variable
// (from config/broker-settings.ts), how the sources combine, examples and the exit codes. Wrapped to 100 columns.
import { BROKER_SETTINGS, type BrokerSetting } from "../config/broker-settings.js";

const WIDTH = 100;
const OPTION_COLUMN = 40;

function wrap(text: string, indent: number, firstLineUsed = indent): string[] {
  const lines: string[] = [];
  let line = "";
  let room = WIDTH - firstLineUsed;
  for (const word of text.split(/\s+/)) {
    if (line !== "" && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
      room = WIDTH - indent;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** One option with its description in the second column (on the next line when the option is long). */
function optionLines(option: string, description: string): string[] {
  const head = `  ${option}`;
  const pad = " ".repeat(OPTION_COLUMN);
  if (head.length >= OPTION_COLUMN - 1) return [head, ...wrap(description, OPTION_COLUMN).map((line) => pad + line)];
  const [first = "", ...rest] = wrap(description, OPTION_COLUMN);
  return [head.padEnd(OPTION_COLUMN) + first, ...rest.map((line) => pad + line)];
}

function settingOption(setting: BrokerSetting): string {
  const value = { bool: "", int: " <n>", list: " <a,b,...>", string: " <value>" }[setting.type];
  return `--${setting.flag}${value}`;
}

function paragraph(text: string): string[] {
  return wrap(text, 0);
}

/** The usage text printed by `--help` (no trailing newline). */
export function brokerUsage(): string {
  return [
    "Usage: nereus [start] [options]",
    "       nereus admin <topics|groups|brokers> [options]",
    "       nereus --help | --version",
    "",
    ...paragraph(
      "Runs the Nereus broker, which serves Kafka and Pulsar clients over Nereus streams. Without options it runs " +
        "on the embedded default: filesystem objects and SQLite metadata in ./.nereus-data (one broker per data " +
        "directory), Kafka on 127.0.0.1:9092, Pulsar on 127.0.0.1:6650, admin HTTP (/healthz, /metrics, the /admin/v1 API and the /console " +
        "web console) on 127.0.0.1:9644.",
    ),
    "",
    "Commands:",
    ...optionLines("start", "run the broker until SIGTERM or SIGINT (the default command)"),
    ...optionLines(
      "admin <command>",
      "show a running broker's topics, consumer groups (with lag) or brokers from its admin API (nereus admin --help)",
    ),
    "",
    "General options:",
    ...optionLines("-h, --help", "print this help and exit"),
    ...optionLines("-v, --version", "print the broker's version and exit"),
    ...optionLines("-c, --config <file>", "JSON config file with the fields --print-config shows [NEREUS_CONFIG]"),
    ...optionLines("--print-config", "print the resolved configuration as JSON (secrets redacted) and exit"),
    "",
    "Broker options (the environment variable in brackets sets the same):",
    ...BROKER_SETTINGS.flatMap((setting) => optionLines(settingOption(setting), `${setting.help} [${setting.env}]`)),
    "",
    ...paragraph(
      "Sources: options > NEREUS_* environment variables > the config file > defaults. Unknown options and " +
        "config fields are errors. Switches (options without a value above) also take true or false " +
        "(--auto-create-topics=false), and --no-<switch> turns one off. A value starting with '-' is written " +
        "--option=-value.",
    ),
    "",
    "Examples:",
    "  nereus",
    "  nereus --data-dir /var/lib/nereus --kafka-host 0.0.0.0 --advertised-host kafka.example.com",
    "  NEREUS_KAFKA_PORT=9093 NEREUS_LOG_LEVEL=debug nereus",
    "  nereus --cluster prod --node-id 1 --etcd-endpoints http://etcd:2379 \\",
    "         --s3-bucket nereus --s3-endpoint http://s3:9000 --s3-force-path-style",
    "  nereus --config broker.json --print-config",
    "  npm start -- --kafka-port 9093          (from a clone of the repository)",
    "",
    ...paragraph(
      "Exit codes: 0 after a graceful shutdown, 1 when start-up fails, 2 for a bad command line or " +
        "configuration. Every setting and its default: docs/broker-configuration.md; the metrics: docs/metrics.md.",
    ),
  ].join("\n");
}
