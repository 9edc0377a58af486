// The adapter's record of one topic (or one partition of a partitioned topic): its current incarnation. An
// incarnation is one stream and one virtual ledger id, with a storage profile fixed at creation. Deleting the topic
// keeps the record as a DELETED tombstone, so that creating it again starts incarnation + 1 on a new stream with a
// new ledger id, and MessageIds of the old incarnation fail cleanly on their ledger id. The core only sees streams.
import { type StorageProfile, streamIdFromName } from "@nereus/core";

/**
 * Lifecycle of an incarnation: CREATING (record written, stream being created) → ACTIVE → DELETING (stream being
 * deleted) → DELETED (tombstone; the next creation moves it to CREATING with incarnation + 1).
 */
export type PulsarTopicState = "CREATING" | "ACTIVE" | "DELETING" | "DELETED";

/** Smallest virtual ledger id (2^62): far above any BookKeeper ledger id a migrated topic could carry. */
export const MIN_VIRTUAL_LEDGER_ID = 2n ** 62n;
/** Largest virtual ledger id (2^63 - 2): below Long.MAX_VALUE, which clients use for "latest". */
export const MAX_VIRTUAL_LEDGER_ID = 2n ** 63n - 2n;
/**
 * Distance between two ledger ids the allocator hands out (2^10): the spacing of IEEE-754 doubles in [2^62, 2^63),
 * so every allocated id is a double exactly and survives clients that hold int64 values as JavaScript numbers.
 */
export const LEDGER_ID_STEP = 1024n;
/** Largest ledger id the allocator hands out (2^63 - 1024 = 2^62 + (2^52 - 1) * 1024). */
export const MAX_ALLOCATED_LEDGER_ID = 2n ** 63n - LEDGER_ID_STEP;

/**
 * A stored topic incarnation. Invariants: `incarnation >= 1`; `streamName` is `topicStreamName(name,
 * incarnation)` and `streamId` its id; `ledgerId` in [{@link MIN_VIRTUAL_LEDGER_ID}, {@link MAX_VIRTUAL_LEDGER_ID}]
 * and never reused by another incarnation of any topic; `profile` never changes within an incarnation.
 */
export interface PulsarTopic {
  /** Canonical full name (`persistent://tenant/namespace/topic`, a partition's with its suffix). */
  readonly name: string;
  readonly incarnation: number;
  readonly state: PulsarTopicState;
  readonly streamName: string;
  readonly streamId: string;
  /** The virtual ledger id of every MessageId of this incarnation. */
  readonly ledgerId: bigint;
  readonly profile: StorageProfile;
  readonly createdAtMillis: number;
}

/** The stream name of incarnation `incarnation` of topic `name`: `pulsar/{incarnation}/{name}`. */
export function topicStreamName(name: string, incarnation: number): string {
  return `pulsar/${String(incarnation)}/${name}`;
}

/** The stream id of incarnation `incarnation` of topic `name`. */
export function topicStreamId(name: string, incarnation: number): string {
  return streamIdFromName(topicStreamName(name, incarnation));
}

/** Stream attributes of every topic stream: entries are stored Pulsar message entries, one per offset. */
export const TOPIC_STREAM_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({
  "nereus.payloadMapping": "PULSAR_ENTRY_V1",
});
