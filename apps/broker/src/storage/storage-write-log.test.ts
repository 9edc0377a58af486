import { ErrorCode, NereusError } from "@nereus/core";
import { describe, expect, test } from "vitest";
import type { BrokerLogger } from "../logging/broker-logger.js";
import { StorageWriteLog } from "./storage-write-log.js";

function capture(): {
  readonly logger: BrokerLogger;
  readonly lines: { level: string; message: string; fields: Readonly<Record<string, unknown>> }[];
} {
  const lines: { level: string; message: string; fields: Readonly<Record<string, unknown>> }[] = [];
  const push =
    (level: string) =>
    (message: string, fields: Readonly<Record<string, unknown>> = {}) =>
      lines.push({ level, message, fields });
  return {
    lines,
    logger: {
      debug: push("debug"),
      info: push("info"),
      warn: push("warn"),
      error: push("error"),
    } as unknown as BrokerLogger,
  };
}

describe("StorageWriteLog", () => {
  test("logs the first failed write, then at most one line per interval with the failures left out, and the recovery", () => {
    const { logger, lines } = capture();
    let now = 1_000_000;
    const log = new StorageWriteLog(logger, { intervalMs: 30_000, clock: () => now });
    const error = new NereusError(ErrorCode.OBJECT_UPLOAD_FAILED, "put failed (ENOSPC)", { retryable: true });
    const health = {
      writable: false,
      reason: error.message,
      since: now,
      failures: 1,
      failing: ["segment-log"],
    } as const;
    log.onWriteFailure(error, "segment-log", health);
    for (let index = 0; index < 100; index += 1) {
      now += 100;
      log.onWriteFailure(error, "segment-log", { ...health, failures: 2 + index });
    }
    expect(lines.map((line) => line.message)).toEqual(["storage cannot write"]);
    now += 30_000;
    log.onWriteFailure(error, "segment-log", { ...health, failures: 102 });
    expect(lines).toHaveLength(2);
    expect(lines[1]?.fields).toMatchObject({
      writer: "segment-log",
      error: "put failed (ENOSPC)",
      retryable: true,
      failures: 102,
      suppressed: 100,
    });
    log.onWritable({ ...health, failures: 102 });
    expect(lines[2]).toMatchObject({ level: "info", message: "storage writable again", fields: { failures: 102 } });
    // A new episode starts with a line at once.
    log.onWriteFailure(error, "segment-log", health);
    expect(lines).toHaveLength(4);
    expect(lines[3]?.fields["suppressed"]).toBeUndefined();
  });
});
