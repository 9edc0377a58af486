// The `nereus admin …` command line, read with node:util parseArgs: a subcommand (topics, groups, brokers), its
// options (--describe NAME for topics and groups, --admin-url, --json, --timeout-ms, --token-file, --ca-file; the
// token also from NEREUS_ADMIN_TOKEN, the CA file from NEREUS_ADMIN_CA_FILE) and --help at any level.
// Anything it cannot run is an {@link AdminUsageError}: one line, exit code 2.
import { parseArgs } from "node:util";

/** The admin HTTP address of a broker on its defaults (the `admin` section of the broker's configuration). */
export const DEFAULT_ADMIN_URL = "http://127.0.0.1:9644";
/** How long one request to the broker may take unless --timeout-ms says otherwise. */
export const DEFAULT_ADMIN_TIMEOUT_MS = 10_000;

/** The admin subcommands. */
export const ADMIN_SUBCOMMANDS = ["topics", "groups", "brokers"] as const;
export type AdminSubcommand = (typeof ADMIN_SUBCOMMANDS)[number];

/** A command line `nereus admin` cannot run: exit code 2. */
export class AdminUsageError extends Error {
  override readonly name = "AdminUsageError";
}

/** What `nereus admin …` was asked to do. */
export type AdminInvocation =
  | { readonly kind: "help"; readonly subcommand: AdminSubcommand | undefined }
  | {
      readonly kind: "run";
      readonly subcommand: AdminSubcommand;
      /** The topic or group to describe, or undefined to list. */
      readonly describe: string | undefined;
      readonly adminUrl: URL;
      readonly json: boolean;
      readonly timeoutMs: number;
      readonly credentials: AdminCredentialSources;
    };

/** Where the admin credentials come from (files are read when the command runs). */
export interface AdminCredentialSources {
  /** The token itself (NEREUS_ADMIN_TOKEN). */
  readonly token?: string;
  /** A file holding the token (--token-file; wins over NEREUS_ADMIN_TOKEN). */
  readonly tokenFile?: string;
  /** PEM CA bundle for an https admin URL (--ca-file or NEREUS_ADMIN_CA_FILE). */
  readonly caFile?: string;
}

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  describe: { type: "string", short: "d" },
  "admin-url": { type: "string" },
  json: { type: "boolean" },
  "timeout-ms": { type: "string" },
  "token-file": { type: "string" },
  "ca-file": { type: "string" },
} as const;

function isSubcommand(value: string | undefined): value is AdminSubcommand {
  return (ADMIN_SUBCOMMANDS as readonly string[]).includes(value ?? "");
}

function adminUrlOf(text: string | undefined): URL {
  const value = text ?? DEFAULT_ADMIN_URL;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AdminUsageError(`--admin-url ${JSON.stringify(value)} is not a URL (e.g. ${DEFAULT_ADMIN_URL})`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new AdminUsageError(`--admin-url must be an http:// or https:// URL, got ${JSON.stringify(value)}`);
  return url;
}

function timeoutOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_ADMIN_TIMEOUT_MS;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 600_000)
    throw new AdminUsageError(`--timeout-ms must be a whole number of milliseconds from 1 to 600000, got ${text}`);
  return value;
}

function parsed(
  argv: readonly string[],
): ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>> {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, strict: true, allowPositionals: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const option = /'(?:-\w, )?(-[^' ]+)/.exec(message)?.[1];
    const code = (error as { code?: unknown }).code;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option !== undefined)
      throw new AdminUsageError(`unknown option ${option}`);
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option !== undefined)
      throw new AdminUsageError(
        /does not take an argument/.test(message) ? `${option} takes no value` : `${option} needs a value`,
      );
    throw new AdminUsageError(message.split("\n")[0] ?? message);
  }
}

function credentialsOf(
  values: { readonly "token-file"?: string | undefined; readonly "ca-file"?: string | undefined },
  env: Readonly<Record<string, string | undefined>>,
): AdminCredentialSources {
  const tokenFile = values["token-file"];
  const caFile = values["ca-file"] ?? env.NEREUS_ADMIN_CA_FILE;
  const token = env.NEREUS_ADMIN_TOKEN;
  if (tokenFile === "") throw new AdminUsageError("--token-file needs a path");
  if (caFile === "") throw new AdminUsageError("--ca-file needs a path");
  return {
    ...(tokenFile !== undefined ? { tokenFile } : token !== undefined && token !== "" ? { token } : {}),
    ...(caFile === undefined ? {} : { caFile }),
  };
}

/**
 * Reads the arguments after `nereus admin` (and NEREUS_ADMIN_TOKEN, NEREUS_ADMIN_CA_FILE from `env`). Throws
 * {@link AdminUsageError} for anything it cannot run.
 */
export function parseAdminCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): AdminInvocation {
  const { values, positionals } = parsed(argv);
  const [subcommand, ...extra] = positionals;
  if (subcommand !== undefined && subcommand !== "help" && !isSubcommand(subcommand))
    throw new AdminUsageError(
      `unknown admin command ${JSON.stringify(subcommand)} (commands: ${ADMIN_SUBCOMMANDS.join(", ")})`,
    );
  if (subcommand === "help") {
    const [topic] = extra;
    if (topic !== undefined && !isSubcommand(topic)) throw new AdminUsageError(`no help for ${JSON.stringify(topic)}`);
    return { kind: "help", subcommand: topic };
  }
  if (values.help === true || subcommand === undefined) return { kind: "help", subcommand };
  if (extra.length > 0) throw new AdminUsageError(`unexpected argument ${JSON.stringify(extra[0])}`);
  if (values.describe !== undefined && subcommand === "brokers")
    throw new AdminUsageError("--describe is for topics and groups (brokers lists this broker in full)");
  if (values.describe === "") throw new AdminUsageError("--describe needs a name");
  return {
    kind: "run",
    subcommand,
    describe: values.describe,
    adminUrl: adminUrlOf(values["admin-url"]),
    json: values.json === true,
    timeoutMs: timeoutOf(values["timeout-ms"]),
    credentials: credentialsOf(values, env),
  };
}
