// Builds the broker configuration from, in increasing precedence: the schema's defaults, a JSON config file
// (`--config` or NEREUS_CONFIG), NEREUS_* environment variables and command-line flags. Every value remembers
// where it came from, so a validation error names the field and its source in one line, e.g.
//   kafka.port (from --kafka-port=abc): Invalid input: expected number, received string
// Flags and variables are listed in config/broker-settings.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { type BrokerConfig, BrokerConfigSchema } from "./broker-config.js";
import { BROKER_SETTINGS, type BrokerSetting, type ValueType } from "./broker-settings.js";
import { type CommandLine, parseCommandLine } from "./command-line.js";
import { ConfigError } from "./config-error.js";
import { Layers, type RawObject, isObject } from "./config-layers.js";
import { redactSource } from "./secret-fields.js";

/** The validated configuration and whether the command line asked to print it instead of starting. */
export interface LoadedBrokerConfig {
  readonly config: BrokerConfig;
  readonly printConfig: boolean;
}

export interface LoadBrokerConfigOptions {
  /** The command line, already parsed; else `argv` is parsed (default the process's arguments). */
  readonly commandLine?: CommandLine;
  readonly argv?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Relative paths resolve against this directory (default the process's working directory). */
  readonly cwd?: string;
}

function parseValue(type: ValueType, text: string): unknown {
  switch (type) {
    case "string":
      return text;
    case "int":
      return /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text;
    case "bool": {
      const lowered = text.trim().toLowerCase();
      if (["true", "1", "yes", "on"].includes(lowered)) return true;
      if (["false", "0", "no", "off"].includes(lowered)) return false;
      return text;
    }
    case "list":
      return text
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item.length > 0);
  }
}

function applySetting(layers: Layers, setting: BrokerSetting, text: string, source: string): void {
  if (setting.implies !== undefined) layers.set(setting.implies.path, setting.implies.value, source);
  layers.set(setting.path, parseValue(setting.type, text), source);
}

function readConfigFile(file: string): RawObject {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(
      `config file ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`config file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw new ConfigError(`config file ${file} must hold a JSON object`);
  return parsed;
}

/**
 * Reads flags, environment and the config file and validates the result. Throws {@link ConfigError} with a
 * one-line message naming each bad field and where its value came from ({@link UsageError} for a bad command line).
 */
export function loadBrokerConfig(options: LoadBrokerConfigOptions = {}): LoadedBrokerConfig {
  const commandLine = options.commandLine ?? parseCommandLine(options.argv ?? process.argv.slice(2));
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const layers = new Layers();
  const configFile = commandLine.configFile ?? env.NEREUS_CONFIG;
  if (configFile !== undefined && configFile !== "") {
    const file = path.resolve(cwd, configFile);
    layers.merge(readConfigFile(file), `config file ${file}`);
  }
  for (const setting of BROKER_SETTINGS) {
    const text = env[setting.env];
    if (text !== undefined && text !== "") applySetting(layers, setting, text, `${setting.env}=${text}`);
  }
  for (const { setting, text, source } of commandLine.settings) applySetting(layers, setting, text, source);
  const result = BrokerConfigSchema.safeParse(layers.raw);
  if (!result.success) {
    const describe = (fieldPath: readonly PropertyKey[], message: string): string => {
      const field = fieldPath.length === 0 ? "(config)" : fieldPath.map(String).join(".");
      const source = layers.sourceOf(fieldPath);
      return `${field}${source === undefined ? "" : ` (from ${redactSource(source)})`}: ${message}`;
    };
    const problems = result.error.issues.flatMap((issue) =>
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => describe([...issue.path, key], "unknown field"))
        : [describe(issue.path, issue.message)],
    );
    throw new ConfigError(`bad config: ${problems.join("; ")}`);
  }
  const config = result.data;
  return { config: { ...config, dataDir: path.resolve(cwd, config.dataDir) }, printConfig: commandLine.printConfig };
}
