import { describe, expect, test } from "vitest";
import { BrokerConfigSchema } from "../config/broker-config.js";
import {
  ADMIN_SUBCOMMANDS,
  AdminUsageError,
  DEFAULT_ADMIN_TIMEOUT_MS,
  DEFAULT_ADMIN_URL,
  parseAdminCommandLine,
} from "./admin-command-line.js";
import { adminUsage } from "./admin-usage.js";

function usageError(argv: string[]): string {
  try {
    parseAdminCommandLine(argv);
  } catch (error) {
    if (error instanceof AdminUsageError) return error.message;
    throw error;
  }
  throw new Error(`${argv.join(" ")} was accepted`);
}

describe("nereus admin's command line", () => {
  test("the default admin URL is where a broker on its defaults serves admin HTTP", () => {
    const { admin } = BrokerConfigSchema.parse({});
    expect(DEFAULT_ADMIN_URL).toBe(`http://${admin.host}:${String(admin.port)}`);
  });

  test("reads each command with its options", () => {
    expect(parseAdminCommandLine(["topics"], {})).toEqual({
      kind: "run",
      subcommand: "topics",
      describe: undefined,
      adminUrl: new URL(DEFAULT_ADMIN_URL),
      json: false,
      timeoutMs: DEFAULT_ADMIN_TIMEOUT_MS,
      credentials: {},
    });
    expect(
      parseAdminCommandLine(["groups", "-d", "billing", "--json", "--admin-url=https://h:1/", "--timeout-ms", "50"]),
    ).toMatchObject({ subcommand: "groups", describe: "billing", json: true, timeoutMs: 50 });
    expect(parseAdminCommandLine(["brokers", "--admin-url", "http://10.0.0.5:9644"])).toMatchObject({
      subcommand: "brokers",
      adminUrl: new URL("http://10.0.0.5:9644"),
    });
  });

  test("credentials: a token file or NEREUS_ADMIN_TOKEN, a CA file from the flag or NEREUS_ADMIN_CA_FILE", () => {
    const env = { NEREUS_ADMIN_TOKEN: "from-env", NEREUS_ADMIN_CA_FILE: "/etc/ca.pem" };
    expect(parseAdminCommandLine(["topics"], env)).toMatchObject({
      credentials: { token: "from-env", caFile: "/etc/ca.pem" },
    });
    expect(
      parseAdminCommandLine(["topics", "--token-file", "/run/token", "--ca-file", "/tmp/ca.pem"], env),
    ).toMatchObject({ credentials: { tokenFile: "/run/token", caFile: "/tmp/ca.pem" } });
    expect(parseAdminCommandLine(["topics"], { NEREUS_ADMIN_TOKEN: "" })).toMatchObject({ credentials: {} });
    expect(usageError(["topics", "--token-file="])).toBe("--token-file needs a path");
  });

  test("help: no command, --help anywhere, or `help <command>`", () => {
    expect(parseAdminCommandLine([])).toEqual({ kind: "help", subcommand: undefined });
    expect(parseAdminCommandLine(["--help"])).toEqual({ kind: "help", subcommand: undefined });
    expect(parseAdminCommandLine(["topics", "-h", "--describe", "x"])).toEqual({ kind: "help", subcommand: "topics" });
    expect(parseAdminCommandLine(["help", "groups"])).toEqual({ kind: "help", subcommand: "groups" });
  });

  test("refuses what it cannot run, in one line", () => {
    expect(usageError(["streams"])).toBe('unknown admin command "streams" (commands: topics, groups, brokers)');
    expect(usageError(["topics", "--verbose"])).toBe("unknown option --verbose");
    expect(usageError(["topics", "--json=yes"])).toBe("--json takes no value");
    expect(usageError(["topics", "--describe"])).toBe("--describe needs a value");
    expect(usageError(["topics", "--describe="])).toBe("--describe needs a name");
    expect(usageError(["brokers", "-d", "x"])).toMatch(/^--describe is for topics and groups/);
    expect(usageError(["topics", "orders"])).toBe('unexpected argument "orders"');
    expect(usageError(["topics", "--admin-url", "nowhere"])).toMatch(/is not a URL/);
    expect(usageError(["topics", "--admin-url", "file:///x"])).toMatch(/must be an http:\/\/ or https:\/\/ URL/);
    expect(usageError(["topics", "--timeout-ms", "0"])).toMatch(/^--timeout-ms must be/);
    expect(usageError(["topics", "--timeout-ms", "1.5"])).toMatch(/^--timeout-ms must be/);
    expect(usageError(["help", "streams"])).toBe('no help for "streams"');
  });

  test("every help text fits 100 columns and names the options", () => {
    for (const subcommand of [undefined, ...ADMIN_SUBCOMMANDS]) {
      const usage = adminUsage(subcommand);
      for (const line of usage.split("\n")) expect(line.length, line).toBeLessThanOrEqual(100);
      for (const option of ["--admin-url", "--json", "--timeout-ms", "--help", "Exit codes"])
        expect(usage).toContain(option);
    }
    expect(adminUsage("topics")).toContain("--describe <topic>");
    expect(adminUsage("groups")).toContain("--describe <group>");
  });
});
