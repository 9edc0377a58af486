// Applies a committed append group to the partition's committed state: the tail cache, the time index, the
// producer table, the high watermark, the append events, the checkpoint schedule and the listeners. Called only once
// every group ahead of it has been applied; no I/O and no answers here.
import type { Group, ProduceHost } from "./produce-host.js";

/** Applies a committed group to the committed state (every group ahead of it has been applied). */
export function commitAppendGroup(host: ProduceHost, group: Group): void {
  const state = group.state;
  let records = 0;
  let bytes = 0;
  // The tail cache takes the stored batches of the current state only (a dropped state's group is not its tail).
  const tailing = host.tail.enabled && host.loadedState() === state;
  group.entries.forEach((entry, index) => {
    const member = group.members[index];
    if (member === undefined) return;
    if (tailing)
      host.tail.add(state.streamId, {
        offset: member.baseOffset,
        recordCount: entry.recordCount,
        payload: entry.payload,
      });
    state.timeIndex.observe({
      baseOffset: member.baseOffset,
      recordCount: entry.recordCount,
      maxTimestamp: group.logAppendTimeMs ?? member.ticket.submission?.header.maxTimestamp ?? -1,
      bytes: entry.payload.byteLength,
      producer: undefined,
    });
    records += entry.recordCount;
    bytes += entry.payload.byteLength;
  });
  for (const [producerId, entry] of group.overlay) state.producers.set(producerId, entry);
  state.highWatermark += records;
  state.batchesSinceCheckpoint += group.entries.length;
  host.context.events.appended(host.topicName, group.entries.length, records, bytes);
  const interval = host.context.checkpointIntervalBatches;
  if (interval > 0 && state.batchesSinceCheckpoint >= interval) host.scheduleCheckpoint(state);
  host.notify();
}
