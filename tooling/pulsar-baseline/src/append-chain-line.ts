// Where the Nereus broker's appends spent their time over one benchmark phase, from two readings of its /metrics
// (Prometheus text) taken before and after it: the appends and their mean call->ack time, the WAL objects, and the
// mean of each step of the embedded stores' I/O threads in the order an append meets them (the segment write and its
// fdatasync, the SQLite writer's wait for that write's durability gate, its round and the fdatasync of its -wal
// file). Pure: no I/O.

/** The I/O steps of an append on the embedded default, in the order it meets them. */
const APPEND_STEPS = ["segment_write", "segment_sync", "sqlite_gate_wait", "sqlite_round", "sqlite_wal_sync"] as const;

/** The sum of every sample of `metric` whose labels contain `labelFilter` (0 when there is none). */
function sample(text: string, metric: string, labelFilter = ""): number {
  let total = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(metric)) continue;
    const rest = line.slice(metric.length);
    if (rest[0] !== " " && rest[0] !== "{") continue;
    if (!rest.includes(labelFilter)) continue;
    total += Number(rest.slice(rest.lastIndexOf(" ") + 1));
  }
  return total;
}

/** The mean in ms of a histogram's observations between the two readings, undefined when there were none. */
function meanMs(before: string, after: string, histogram: string, labelFilter = ""): number | undefined {
  const count = sample(after, `${histogram}_count`, labelFilter) - sample(before, `${histogram}_count`, labelFilter);
  if (count <= 0) return undefined;
  const sum = sample(after, `${histogram}_sum`, labelFilter) - sample(before, `${histogram}_sum`, labelFilter);
  return (sum / count) * 1000;
}

/**
 * One line describing the appends between two /metrics readings of a Nereus broker (counters are cumulative), e.g.
 * `1021 appends (mean 27.9 ms call->ack), 1021 WAL objects; I/O threads (mean): segment_write 0.21 ms, ...`.
 */
export function appendChainLine(before: string, after: string): string {
  const appends =
    sample(after, "nereus_append_duration_seconds_count") - sample(before, "nereus_append_duration_seconds_count");
  const objects = sample(after, "nereus_wal_objects_total") - sample(before, "nereus_wal_objects_total");
  const callToAck = meanMs(before, after, "nereus_append_duration_seconds");
  const steps = APPEND_STEPS.map((step) => {
    const mean = meanMs(before, after, "nereus_storage_io_seconds", `step="${step}"`);
    return mean === undefined ? undefined : `${step} ${mean.toFixed(2)} ms`;
  }).filter((step) => step !== undefined);
  return (
    `${String(appends)} appends (mean ${callToAck === undefined ? "n/a" : `${callToAck.toFixed(1)} ms`} call->ack), ` +
    `${String(objects)} WAL objects` +
    (steps.length > 0 ? `; I/O threads (mean): ${steps.join(", ")}` : "")
  );
}
