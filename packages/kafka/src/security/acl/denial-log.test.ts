import { describe, expect, test } from "vitest";
import { type LogEvent, capturingLogger } from "../../../test/broker-harness.js";
import { type Denial, DenialLog } from "./denial-log.js";

const denial = (principal: string, api = "Produce"): Denial => ({
  principal,
  host: "10.0.0.1",
  api,
  operation: "WRITE",
  resource: "TOPIC:orders",
});

describe("DenialLog", () => {
  test("logs a (principal, API) pair at info once per quiet period, repeats at debug, then reports how many were folded", () => {
    const events: LogEvent[] = [];
    let now = 1_000_000;
    const log = new DenialLog(capturingLogger(events), () => now);
    log.denied(denial("User:alice"));
    log.denied(denial("User:alice"));
    log.denied(denial("User:alice"));
    log.denied(denial("User:bob"));
    log.denied(denial("User:alice", "Fetch"));
    now += 10_000;
    log.denied(denial("User:alice"));
    const info = events.filter((event) => event.level === "info");
    expect(
      info.map((event) => [event.fields?.["principal"], event.fields?.["api"], event.fields?.["foldedSinceLastLine"]]),
    ).toEqual([
      ["User:alice", "Produce", 0],
      ["User:bob", "Produce", 0],
      ["User:alice", "Fetch", 0],
      ["User:alice", "Produce", 2],
    ]);
    expect(events.filter((event) => event.level === "debug")).toHaveLength(2);
  });
});
