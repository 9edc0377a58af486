// Peek through the admin API (`.../subscription/{sub}/position/{n}`): the n-th entry (1-based) a subscription has
// not acknowledged, answered as Pulsar's broker does — the message payload as the body (a batch's whole payload,
// which the client splits by the `X-Pulsar-num-batch-message` header) and the metadata as `X-Pulsar-*` headers.
// Compressed entries are refused (412: the broker does not decompress), as is a partitioned topic (405: peek a
// partition). Properties whose key or value cannot be an HTTP header are left out. Reads one entry; no cursor moves.
import { CompressionType } from "../protocol/index.js";
import { parseEntryMetadata } from "../entries/entry-metadata.js";
import { formatPosition } from "../ledger/position.js";
import type { TopicName } from "../topics/topic-name.js";
import type { AdminContext } from "./admin-context.js";
import { type AdminResponse, methodNotAllowed, notFound, preconditionFailed } from "./admin-exchange.js";
import { ackRangesOf } from "./topic-stats.js";

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/** GET .../subscription/{sub}/position/{position}: the `position`-th unacknowledged message of `subscription`. */
export async function peekMessage(
  context: AdminContext,
  name: TopicName,
  subscription: string,
  position: number,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  if ((await context.topics.partitioned(name, signal)) !== undefined) {
    throw methodNotAllowed("Peek messages on a partitioned topic is not allowed");
  }
  const ledger = await context.topics.ledger(name, signal);
  const cursor = context.topics.cursor(ledger, subscription);
  const offset = nthUnacknowledged(cursor.markDeleteOffset, ackRangesOf(cursor), position);
  if (position < 1 || offset >= ledger.bounds().committedEndOffset) throw notFound("Message not found");
  const [entry] = (await ledger.readEntries(offset, { maxEntries: 1, signal })).entries;
  if (entry === undefined) throw notFound("Message not found");
  const described = parseEntryMetadata(entry.payload);
  const { metadata } = described;
  if ((metadata.compression ?? CompressionType.NONE) !== CompressionType.NONE) {
    throw preconditionFailed("Compressed messages cannot be peeked through this broker");
  }
  const payload = entry.payload.subarray(described.payloadOffset);
  const headers: Record<string, string> = {
    "X-Pulsar-Message-ID": formatPosition(entry.position),
    "X-Pulsar-publish-time": new Date(Number(metadata.publishTime)).toISOString(),
    "X-Pulsar-producer-name": metadata.producerName,
    "X-Pulsar-sequence-id": described.sequenceId.toString(),
    "X-Pulsar-batch-size": String(payload.length),
  };
  if (metadata.eventTime !== undefined && metadata.eventTime > 0n) {
    headers["X-Pulsar-event-time"] = new Date(Number(metadata.eventTime)).toISOString();
  }
  if (metadata.partitionKey !== undefined) headers["X-Pulsar-partition-key"] = metadata.partitionKey;
  if (metadata.nullValue === true) headers["X-Pulsar-null-value"] = "true";
  if (described.isBatch) headers["X-Pulsar-num-batch-message"] = String(described.numberOfMessages);
  if (described.isEncrypted) headers["X-Pulsar-Is-Encrypted"] = "true";
  for (const { key, value } of metadata.properties ?? []) headers[`X-Pulsar-PROPERTY-${key}`] = value;
  return { status: 200, binary: { bytes: payload, headers: headerSafe(headers) } };
}

/**
 * The offset of the `position`-th (1-based) entry at or above `markDelete` outside the acknowledged `ranges`
 * (sorted, disjoint, above markDelete): one step per range, whatever the position.
 */
function nthUnacknowledged(
  markDelete: number,
  ranges: ReadonlyArray<{ readonly start: number; readonly end: number }>,
  position: number,
): number {
  let offset = markDelete;
  let remaining = position;
  for (const range of ranges) {
    const gap = range.start - offset;
    if (remaining <= gap) return offset + remaining - 1;
    remaining -= gap;
    offset = range.end;
  }
  return offset + remaining - 1;
}

function headerSafe(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name, value]) => HEADER_NAME.test(name) && HEADER_VALUE.test(value)),
  );
}
