import { describe, expect, test } from "vitest";
import { PinoBrokerLogger, type BrokerLoggerOptions } from "./broker-logger.js";

function capture(options: BrokerLoggerOptions = {}): { logger: PinoBrokerLogger; lines: string[] } {
  const lines: string[] = [];
  const logger = new PinoBrokerLogger({
    clock: () => Date.UTC(2030, 0, 2, 3, 4, 5, 6),
    ...options,
    sink: { write: (line) => lines.push(line) },
  });
  return { logger, lines };
}

const parsed = (lines: readonly string[]): Array<Record<string, unknown>> =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe("the broker's logger", () => {
  test("writes one JSON object per line: level, ts, msg and the fields", () => {
    const { logger, lines } = capture();
    logger.info("broker started", { kafka: "127.0.0.1:9092", nodeId: 0, big: 2n ** 70n, nested: { a: [1, 2] } });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith("}\n")).toBe(true);
    expect(parsed(lines)[0]).toEqual({
      level: "info",
      ts: "2030-01-02T03:04:05.006Z",
      msg: "broker started",
      kafka: "127.0.0.1:9092",
      nodeId: 0,
      big: "1180591620717411303424",
      nested: { a: [1, 2] },
    });
  });

  test("below the configured level nothing is written", () => {
    const { logger, lines } = capture({ level: "warn" });
    logger.debug("d");
    logger.info("i");
    logger.warn("w");
    logger.error("e");
    expect(parsed(lines).map((line) => [line.level, line.msg])).toEqual([
      ["warn", "w"],
      ["error", "e"],
    ]);
  });

  test("errors keep their type, message, code, stack and causes, at any depth", () => {
    const { logger, lines } = capture();
    const root = Object.assign(new Error("disk full"), { code: "ENOSPC" });
    const error = new TypeError("write failed", { cause: root });
    logger.error("storage cannot write", { error, context: { attempts: [error] } });
    const line = parsed(lines)[0]!;
    expect(line.error).toMatchObject({
      type: "TypeError",
      message: "write failed",
      stack: expect.stringContaining("TypeError: write failed") as unknown,
      cause: { type: "Error", message: "disk full", code: "ENOSPC", stack: expect.stringContaining("disk full") },
    });
    expect((line.context as { attempts: unknown[] }).attempts[0]).toMatchObject({ message: "write failed" });
  });

  test("secret-looking fields are redacted at any depth, errors included", () => {
    const { logger, lines } = capture();
    logger.warn("request", {
      user: "alice",
      password: "hunter2",
      headers: { Authorization: "Bearer abc", accept: "*/*" },
      s3: { accessKeyId: "AKIA", secretAccessKey: "shh", sessionToken: "tok" },
      list: [{ apiKey: "k" }],
      error: Object.assign(new Error("denied"), { token: "t0k" }),
    });
    const line = parsed(lines)[0]!;
    expect(line).toMatchObject({
      user: "alice",
      password: "[redacted]",
      headers: { Authorization: "[redacted]", accept: "*/*" },
      s3: { accessKeyId: "AKIA", secretAccessKey: "[redacted]", sessionToken: "[redacted]" },
      list: [{ apiKey: "[redacted]" }],
      error: { message: "denied", token: "[redacted]" },
    });
    expect(lines[0]).not.toMatch(/hunter2|Bearer|shh|tok"|t0k/);
  });

  test("fields cannot overwrite the line's own keys", () => {
    const { logger, lines } = capture();
    logger.info("real message", { msg: "fake", level: "fatal", ts: "yesterday" });
    expect(parsed(lines)[0]).toEqual({
      level: "info",
      ts: "2030-01-02T03:04:05.006Z",
      msg: "real message",
      field_msg: "fake",
      field_level: "fatal",
      field_ts: "yesterday",
    });
  });

  test("the pretty format writes readable lines", () => {
    const { logger, lines } = capture({ format: "pretty" });
    logger.warn("storage cannot write", { suppressed: 3, error: new Error("no space") });
    const text = lines.join("");
    expect(text).toMatch(/WARN.*storage cannot write/);
    expect(text).toContain("suppressed: 3");
    expect(text).toContain("Error: no space");
    expect(() => JSON.parse(lines[0]!) as unknown).toThrow();
  });
});
