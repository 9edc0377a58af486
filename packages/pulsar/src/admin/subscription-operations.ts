// Subscription (cursor) operations of the admin API. On a partitioned topic, listing, creation, deletion, reset by
// time and skip-all apply to every partition; skip and reset to a message id are refused (405) there, as in
// Pulsar — name the partition instead. A reset goes through the broker's Subscription (consumers are disconnected
// and reconnect at the new position, as after a client seek); skip and skip-all act on the cursor directly and
// leave consumers connected, dispatch continuing from the cursor's new first unacknowledged entry.
import { batchBitsAcking } from "@nereus/cursor";
import { parseEntryMetadata } from "../entries/entry-metadata.js";
import type { ManagedLedger } from "../ledger/managed-ledger.js";
import type { SeekTarget } from "../subscriptions/subscription-types.js";
import type { TopicName } from "../topics/topic-name.js";
import type { AdminContext } from "./admin-context.js";
import type { MessageIdBody } from "./admin-bodies.js";
import {
  type AdminResponse,
  NO_CONTENT,
  conflict,
  methodNotAllowed,
  ok,
  preconditionFailed,
} from "./admin-exchange.js";
import { mapBounded } from "./bounded-parallel.js";

/** The subscription names of `name` (on a partitioned topic: of any partition), sorted. */
export async function listSubscriptions(
  context: AdminContext,
  name: TopicName,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const { topics } = await context.topics.targets(name, signal);
  const names = await mapBounded(topics, async (topic) => {
    const ledger = await context.topics.ledger(topic, signal);
    return ledger.cursors.list().map((handle) => handle.name);
  });
  return ok([...new Set(names.flat())].sort());
}

/**
 * Creates subscription `subscription` at `messageId` (the next message delivered is the one it names; earliest and
 * latest as in a subscribe). A missing topic is created when its namespace allows automatic creation. 409 when the
 * subscription exists (on a partitioned topic: on every partition).
 */
export async function createSubscription(
  context: AdminContext,
  name: TopicName,
  subscription: string,
  messageId: MessageIdBody,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const { topics } = await context.topics.targets(name, signal);
  const created = await mapBounded(topics, async (topic) => {
    const ledger = await context.topics.ledgerCreating(topic, signal);
    if (ledger.cursors.get(subscription) !== undefined) return false;
    const initialOffset = ledger.positions.seekOffset(messageId.position, ledger.bounds());
    await ledger.cursors.createCursor(subscription, { initialOffset, properties: messageId.properties, signal });
    return true;
  });
  if (!created.includes(true)) throw conflict("Subscription already exists for topic");
  return NO_CONTENT;
}

/** Deletes subscription `subscription`; 412 while consumers are connected unless `force` (they are disconnected). */
export async function deleteSubscription(
  context: AdminContext,
  name: TopicName,
  subscription: string,
  force: boolean,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const { topics } = await context.topics.targets(name, signal);
  const ledgers = await mapBounded(topics, async (topic) => {
    const ledger = await context.topics.ledger(topic, signal);
    context.topics.cursor(ledger, subscription);
    const open = (await context.topics.opened(topic)).get(subscription);
    if (!force && open !== undefined && open.consumers().length > 0) {
      throw preconditionFailed("Subscription has active connected consumers");
    }
    return { topic, ledger, open };
  });
  await mapBounded(ledgers, async ({ topic, ledger, open }) => {
    if (open !== undefined) {
      context.topics.broker.subscriptions.forget(topic.fullName, subscription, open);
      await open.close();
    }
    await ledger.cursors.deleteCursor(subscription, { signal });
  });
  return NO_CONTENT;
}

/** Resets `subscription` to the first message published after `timestamp` (ms); on every partition. */
export async function resetCursorByTime(
  context: AdminContext,
  name: TopicName,
  subscription: string,
  timestamp: number,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const { topics } = await context.topics.targets(name, signal);
  await mapBounded(topics, async (topic) => {
    const ledger = await context.topics.ledger(topic, signal);
    await (await context.topics.subscription(ledger, subscription)).seek({ publishTime: timestamp });
  });
  return NO_CONTENT;
}

/** Resets `subscription` so that the message `messageId` names (or, `excluded`, the one after it) comes next. */
export async function resetCursorToMessageId(
  context: AdminContext,
  name: TopicName,
  subscription: string,
  messageId: MessageIdBody,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  if ((await context.topics.partitioned(name, signal)) !== undefined) {
    throw methodNotAllowed("Reset-cursor at position is not allowed for partitioned-topic");
  }
  const ledger = await context.topics.ledger(name, signal);
  const open = await context.topics.subscription(ledger, subscription);
  await open.seek(await seekTargetOf(ledger, messageId));
  return NO_CONTENT;
}

/** Acknowledges the next `count` unacknowledged entries of `subscription` (405 on a partitioned topic). */
export async function skipMessages(
  context: AdminContext,
  name: TopicName,
  subscription: string,
  count: number,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  if ((await context.topics.partitioned(name, signal)) !== undefined) {
    throw methodNotAllowed("Skip messages on a partitioned topic is not allowed");
  }
  const ledger = await context.topics.ledger(name, signal);
  const cursor = context.topics.cursor(ledger, subscription);
  await cursor.skip(count, { committedEnd: ledger.bounds().committedEndOffset, signal });
  return NO_CONTENT;
}

/** Acknowledges every entry committed so far (clears the backlog); on every partition. */
export async function skipAllMessages(
  context: AdminContext,
  name: TopicName,
  subscription: string,
  signal?: AbortSignal,
): Promise<AdminResponse> {
  const { topics } = await context.topics.targets(name, signal);
  const cursors = await mapBounded(topics, async (topic) => {
    const ledger = await context.topics.ledger(topic, signal);
    return { ledger, cursor: context.topics.cursor(ledger, subscription) };
  });
  await mapBounded(cursors, ({ ledger, cursor }) =>
    cursor.clearBacklog(ledger.bounds().committedEndOffset, { signal }),
  );
  return NO_CONTENT;
}

/**
 * Where a reset to `messageId` lands: the entry it names (clamped into the ledger), the entry after it when
 * `excluded`; with a batch index, the batch indexes before it (through it, `excluded`) count as acknowledged.
 */
async function seekTargetOf(ledger: ManagedLedger, messageId: MessageIdBody): Promise<SeekTarget> {
  const bounds = ledger.bounds();
  const offset = ledger.positions.seekOffset(messageId.position, bounds);
  const entryNamed = offset < bounds.committedEndOffset && BigInt(offset) === messageId.position.entryId;
  const batchSize = entryNamed && messageId.batchIndex >= 0 ? await batchSizeAt(ledger, offset) : 0;
  if (batchSize === 0 || messageId.batchIndex >= batchSize) {
    return { offset: messageId.excluded ? Math.min(offset + 1, bounds.committedEndOffset) : offset };
  }
  const acked = messageId.excluded ? messageId.batchIndex + 1 : messageId.batchIndex;
  if (acked >= batchSize) return { offset: offset + 1 };
  if (acked === 0) return { offset };
  return {
    offset,
    partial: batchBitsAcking(
      batchSize,
      Array.from({ length: acked }, (_, index) => index),
    ),
  };
}

/** The number of messages of the batch stored at `offset`, or 0 when the entry is not a batch. */
async function batchSizeAt(ledger: ManagedLedger, offset: number): Promise<number> {
  const [entry] = (await ledger.readEntries(offset, { maxEntries: 1 })).entries;
  if (entry === undefined) return 0;
  const described = parseEntryMetadata(entry.payload);
  if (!described.isBatch) return 0;
  if (described.numberOfMessages < 1) throw preconditionFailed(`entry ${String(offset)} is an empty batch`);
  return described.numberOfMessages;
}
