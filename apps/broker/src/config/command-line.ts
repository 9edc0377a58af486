// The `nereus` command line, read with node:util parseArgs: an optional command (`start`, the default), the general
// options (--help, --version, --config, --print-config) and one option per broker setting (config/broker-settings.ts).
// Switches (settings of type "bool") may stand alone (`--s3-force-path-style`), take a value
// (`--materialization all`, `--auto-create-topics=false`) or be negated (`--no-admin`); parseArgs has no optional
// values, so a lone switch is spelled `--switch=true` (and `--no-switch` `--switch=false`) before parsing, and a
// negative number is joined to its option (`--node-id -1`). Anything
// parseArgs refuses — an unknown option, a missing value — is a {@link UsageError}: one line, exit code 2.
import { parseArgs } from "node:util";
import { BROKER_SETTINGS, type BrokerSetting } from "./broker-settings.js";
import { ConfigError } from "./config-error.js";

/** A command line the broker cannot run: an unknown command or option, a missing value. Exit code 2. */
export class UsageError extends ConfigError {
  override readonly name = "UsageError";
}

/** What the broker does: run (`start`), or print its usage or version and exit. */
type BrokerCommand = "start" | "help" | "version";

/** A broker setting given on the command line, in command-line order. */
interface SettingArgument {
  readonly setting: BrokerSetting;
  readonly text: string;
  /** How the value was written, for error messages (`--kafka-port=abc`). */
  readonly source: string;
}

/** The parsed command line. */
export interface CommandLine {
  readonly command: BrokerCommand;
  readonly settings: readonly SettingArgument[];
  readonly configFile: string | undefined;
  readonly printConfig: boolean;
}

const COMMANDS: ReadonlySet<string> = new Set(["start"]);
const SETTING_BY_FLAG = new Map(BROKER_SETTINGS.map((setting) => [setting.flag, setting]));

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
  config: { type: "string", short: "c" },
  "print-config": { type: "boolean" },
  ...Object.fromEntries(BROKER_SETTINGS.map((setting) => [setting.flag, { type: "string" } as const])),
} as const;

function isSwitch(flag: string): boolean {
  return SETTING_BY_FLAG.get(flag)?.type === "bool";
}

/**
 * Gives lone and negated switches an explicit value (parseArgs knows no optional values), and joins a negative
 * number to its option (`--node-id -1`), which parseArgs would take for an option.
 */
function spellOutSwitches(argv: readonly string[]): string[] {
  const result: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index]!;
    if (argument === "--") {
      result.push(...argv.slice(index));
      break;
    }
    const name = argument.startsWith("--") && !argument.includes("=") ? argument.slice(2) : undefined;
    const next = argv[index + 1];
    const valueFollows = next !== undefined && !next.startsWith("-");
    if (name !== undefined && isSwitch(name) && !valueFollows) result.push(`--${name}=true`);
    else if (name !== undefined && SETTING_BY_FLAG.has(name) && next !== undefined && /^-\d/.test(next)) {
      result.push(`--${name}=${next}`);
      index += 1;
    } else if (name?.startsWith("no-") === true && isSwitch(name.slice(3))) result.push(`--${name.slice(3)}=false`);
    else result.push(argument);
  }
  return result;
}

/** The option parseArgs names in its message (`'--kafka-port <value>'`, `'-h, --help'` → `--kafka-port`, `--help`). */
function optionNamed(message: string): string | undefined {
  return /'(?:-\w, )?(-[^' ]+)/.exec(message)?.[1];
}

/** parseArgs' error as one line of our own. */
function usageErrorOf(error: unknown): UsageError {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const option = optionNamed(message);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option !== undefined)
    return new UsageError(`unknown option ${option}`);
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option !== undefined) {
    if (/does not take an argument/.test(message)) return new UsageError(`${option} takes no value`);
    return new UsageError(`${option} needs a value (a value starting with "-" is written ${option}=-value)`);
  }
  return new UsageError(message.split("\n")[0] ?? message);
}

/** Reads `argv` (without node and the script). Throws {@link UsageError} for anything it cannot run. */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({
      args: spellOutSwitches(argv),
      options: OPTIONS,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch (error) {
    throw usageErrorOf(error);
  }
  const [command = "start", ...extra] = parsed.positionals;
  if (!COMMANDS.has(command))
    throw new UsageError(`unknown command ${JSON.stringify(command)} (the broker's commands: start)`);
  if (extra.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
  const settings: SettingArgument[] = [];
  for (const token of parsed.tokens) {
    if (token.kind !== "option") continue;
    const setting = SETTING_BY_FLAG.get(token.name);
    if (setting === undefined || token.value === undefined) continue;
    settings.push({ setting, text: token.value, source: `--${token.name}=${token.value}` });
  }
  const values = parsed.values as { help?: boolean; version?: boolean; config?: string; "print-config"?: boolean };
  return {
    command: values.help === true ? "help" : values.version === true ? "version" : "start",
    settings,
    configFile: values.config,
    printConfig: values["print-config"] === true,
  };
}
