// The help texts of `nereus admin` and of each of its commands (`nereus admin topics --help`, ...).
import {
  ADMIN_SUBCOMMANDS,
  type AdminSubcommand,
  DEFAULT_ADMIN_TIMEOUT_MS,
  DEFAULT_ADMIN_URL,
} from "./admin-command-line.js";

const COMMON_OPTIONS = [
  "Options:",
  `  --admin-url <url>     the broker's admin HTTP address (default ${DEFAULT_ADMIN_URL})`,
  "  --json                print the admin API's JSON instead of tables",
  `  --timeout-ms <n>      how long to wait for the broker (default ${String(DEFAULT_ADMIN_TIMEOUT_MS)})`,
  "  --token-file <path>   a file holding the admin API token (or set NEREUS_ADMIN_TOKEN)",
  "  --ca-file <path>      CA certificates (PEM) of an https admin URL (or set NEREUS_ADMIN_CA_FILE)",
  "  -h, --help            print this help and exit",
];

const EXIT_CODES = "Exit codes: 0 done, 1 the broker could not be reached or answered an error, 2 bad usage.";

const COMMANDS: Readonly<Record<AdminSubcommand, { readonly usage: string; readonly lines: readonly string[] }>> = {
  topics: {
    usage: "nereus admin topics [--describe <topic>] [options]",
    lines: [
      "Lists the Kafka topics: partitions, storage profile, records and bytes. With --describe, one",
      "topic with each partition's stream: start and end offsets, commits, its ranges in Object WAL",
      "objects, read-optimized generations and the materialization backlog.",
      "",
      "  -d, --describe <topic> describe one topic",
    ],
  },
  groups: {
    usage: "nereus admin groups [--describe <group>] [options]",
    lines: [
      "Lists the consumer groups: state, members, partitions with committed offsets and total lag.",
      "With --describe, one group's committed offset, end offset and lag per partition, and its members.",
      "",
      "  -d, --describe <group> describe one group",
    ],
  },
  brokers: {
    usage: "nereus admin brokers [options]",
    lines: ["Shows the broker: node id, version, uptime, listeners (bound and advertised) and storage."],
  },
};

/** The help of `nereus admin` (no subcommand) or of one command. No trailing newline. */
export function adminUsage(subcommand?: AdminSubcommand): string {
  if (subcommand !== undefined) {
    const command = COMMANDS[subcommand];
    return [`Usage: ${command.usage}`, "", ...command.lines, "", ...COMMON_OPTIONS, "", EXIT_CODES].join("\n");
  }
  return [
    "Usage: nereus admin <command> [options]",
    "",
    "Reads a running broker's admin API (/admin/v1 on its admin port). Commands:",
    ...ADMIN_SUBCOMMANDS.map((name) => `  ${name.padEnd(10)} ${COMMANDS[name].usage}`),
    "",
    ...COMMON_OPTIONS,
    "",
    "Examples:",
    "  nereus admin topics",
    "  nereus admin topics --describe orders",
    "  nereus admin groups --describe billing --admin-url http://10.0.0.5:9644",
    "  nereus admin brokers --json",
    "  npm start -- admin groups              (from a clone of the repository)",
    "",
    "The same data is on the broker's web console: <admin-url>/console.",
    EXIT_CODES,
  ].join("\n");
}
