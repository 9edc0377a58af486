import { describe, expect, test } from "vitest";
import { UsageError, parseCommandLine } from "./command-line.js";

function usageErrorOf(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error("expected a UsageError");
}

const settingsOf = (argv: string[]): Array<[string, string]> =>
  parseCommandLine(argv).settings.map(({ setting, text }) => [setting.flag, text]);

describe("the nereus command line", () => {
  test("no arguments start the broker; start may be named; --help and --version win over starting", () => {
    expect(parseCommandLine([])).toEqual({ command: "start", settings: [], configFile: undefined, printConfig: false });
    expect(parseCommandLine(["start"]).command).toBe("start");
    expect(parseCommandLine(["--help"]).command).toBe("help");
    expect(parseCommandLine(["-h"]).command).toBe("help");
    expect(parseCommandLine(["start", "--kafka-port", "1", "--help"]).command).toBe("help");
    expect(parseCommandLine(["--version"]).command).toBe("version");
    expect(parseCommandLine(["-v"]).command).toBe("version");
    expect(parseCommandLine(["--print-config", "-c", "b.json"])).toMatchObject({
      printConfig: true,
      configFile: "b.json",
    });
    expect(parseCommandLine(["--config=b.json"]).configFile).toBe("b.json");
  });

  test("settings keep their order and say how they were written", () => {
    expect(parseCommandLine(["--kafka-port", "9093", "--data-dir=/d"]).settings.map(({ source }) => source)).toEqual([
      "--kafka-port=9093",
      "--data-dir=/d",
    ]);
    expect(settingsOf(["--node-id=-1"])).toEqual([["node-id", "-1"]]);
    expect(settingsOf(["--node-id", "-1", "--kafka-port", "-5"])).toEqual([
      ["node-id", "-1"],
      ["kafka-port", "-5"],
    ]);
  });

  test("switches stand alone, take a value or are negated", () => {
    expect(settingsOf(["--s3-force-path-style"])).toEqual([["s3-force-path-style", "true"]]);
    expect(settingsOf(["--no-admin", "--kafka-port", "1"])).toEqual([
      ["admin", "false"],
      ["kafka-port", "1"],
    ]);
    expect(settingsOf(["--auto-create-topics", "false"])).toEqual([["auto-create-topics", "false"]]);
    expect(settingsOf(["--auto-create-topics=no"])).toEqual([["auto-create-topics", "no"]]);
    expect(settingsOf(["--materialization", "--log-level", "warn"])).toEqual([
      ["materialization", "true"],
      ["log-level", "warn"],
    ]);
    expect(settingsOf(["--materialization", "async"])).toEqual([["materialization", "async"]]);
  });

  test("unknown options and commands, missing values and stray arguments are one-line usage errors", () => {
    expect(usageErrorOf(["--kafka-prot", "1"])).toBe("unknown option --kafka-prot");
    expect(usageErrorOf(["-x"])).toBe("unknown option -x");
    expect(usageErrorOf(["--no-kafka-port"])).toBe("unknown option --no-kafka-port");
    expect(usageErrorOf(["--kafka-port"])).toMatch(/^--kafka-port needs a value/);
    expect(usageErrorOf(["--cluster", "-x"])).toBe(
      '--cluster needs a value (a value starting with "-" is written --cluster=-value)',
    );
    expect(usageErrorOf(["--help=yes"])).toBe("--help takes no value");
    expect(usageErrorOf(["serve"])).toBe('unknown command "serve" (the broker\'s commands: start)');
    expect(usageErrorOf(["start", "9092"])).toBe('unexpected argument "9092"');
    expect(usageErrorOf(["--", "--kafka-port"])).toBe('unknown command "--kafka-port" (the broker\'s commands: start)');
  });
});
