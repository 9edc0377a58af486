import { describe, expect, it } from "vitest";
import { appendChainLine } from "./append-chain-line.js";

function metrics(appends: number, appendSeconds: number, objects: number, syncs: number, syncSeconds: number): string {
  return [
    "# HELP nereus_append_duration_seconds Stream appends from call to acknowledgement, by outcome.",
    `nereus_append_duration_seconds_bucket{le="0.0005",outcome="ok"} 0`,
    `nereus_append_duration_seconds_sum{outcome="ok"} ${String(appendSeconds)}`,
    `nereus_append_duration_seconds_count{outcome="ok"} ${String(appends)}`,
    `nereus_wal_objects_total ${String(objects)}`,
    `nereus_wal_objects_total_extra 99`,
    `nereus_storage_io_seconds_sum{step="segment_sync"} ${String(syncSeconds)}`,
    `nereus_storage_io_seconds_count{step="segment_sync"} ${String(syncs)}`,
    `nereus_storage_io_seconds_sum{step="sqlite_round"} 1`,
    `nereus_storage_io_seconds_count{step="sqlite_round"} 100`,
  ].join("\n");
}

describe("appendChainLine", () => {
  it("describes only what happened between the two readings", () => {
    const before = metrics(100, 1, 50, 50, 0.1);
    const after = metrics(300, 5, 150, 250, 0.9);
    expect(appendChainLine(before, after)).toBe(
      "200 appends (mean 20.0 ms call->ack), 100 WAL objects; I/O threads (mean): segment_sync 4.00 ms",
    );
  });

  it("says n/a without appends and leaves out steps the broker does not have", () => {
    expect(appendChainLine("", "")).toBe("0 appends (mean n/a call->ack), 0 WAL objects");
  });
});
