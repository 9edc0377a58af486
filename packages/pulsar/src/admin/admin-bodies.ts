// The request bodies of the admin API, checked before any I/O: a partition count (a bare integer, or Pulsar's
// PartitionedTopicMetadata `{"partitions": N, "properties": {...}}`), topic properties (a string map), and a message
// id as Pulsar's clients send it (MessageIdImpl or ResetCursorData: ledgerId, entryId, partitionIndex, batchIndex,
// excluded). Each refusal is a 400 naming the field. Pure.
import { isWellFormedString } from "@nereus/core/internal";
import type { Position } from "../ledger/position.js";
import { MAX_PARTITION_COUNT } from "../topics/partitioned-topic.js";
import { badRequest } from "./admin-exchange.js";
import { MAX_TENANT_LIST_LENGTH } from "../tenants/tenant-record-codec.js";
import type { JsonObject, JsonValue } from "./json-text.js";

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A message id from a request body: the position, and how the client asked to land on it. */
export interface MessageIdBody {
  readonly position: Position;
  /** The partition the id belongs to, -1 when none. */
  readonly partitionIndex: number;
  /** The batch index inside the entry, -1 when the id names the entry as a whole. */
  readonly batchIndex: number;
  /** Land after the message instead of on it. */
  readonly excluded: boolean;
  /** Subscription properties sent with the id (empty when none). */
  readonly properties: ReadonlyMap<string, string>;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function int64Field(object: JsonObject, field: string): bigint {
  const value = object[field];
  if ((typeof value === "number" && Number.isInteger(value)) || typeof value === "bigint") {
    const integer = BigInt(value);
    if (integer >= INT64_MIN && integer <= INT64_MAX) return integer;
  }
  throw badRequest(`${field} must be a 64-bit integer, got ${JSON.stringify(String(value))}`);
}

function int32Field(object: JsonObject, field: string, fallback: number): number {
  const value = object[field];
  if (value === undefined || value === null) return fallback;
  if (typeof value === "number" && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31) return value;
  throw badRequest(`${field} must be a 32-bit integer, got ${JSON.stringify(String(value))}`);
}

function booleanField(object: JsonObject, fields: readonly string[]): boolean {
  for (const field of fields) {
    const value = object[field];
    if (value === undefined || value === null) continue;
    if (typeof value === "boolean") return value;
    throw badRequest(`${field} must be a boolean`);
  }
  return false;
}

/** A JSON object of strings (absent or null: empty). */
function stringMapBody(value: JsonValue | undefined, what: string): ReadonlyMap<string, string> {
  if (value === undefined || value === null) return new Map();
  if (!isObject(value)) throw badRequest(`${what} must be a JSON object of strings`);
  const map = new Map<string, string>();
  for (const [key, member] of Object.entries(value)) {
    if (typeof member !== "string") throw badRequest(`${what}: the value of ${JSON.stringify(key)} is not a string`);
    map.set(key, member);
  }
  return map;
}

/** A JSON array of distinct non-empty strings (absent or null: empty), at most 1,024 of them. */
export function stringListBody(value: JsonValue | undefined, what: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_TENANT_LIST_LENGTH) {
    throw badRequest(`${what} must be an array of at most ${String(MAX_TENANT_LIST_LENGTH)} strings`);
  }
  const list: string[] = [];
  for (const item of value as readonly JsonValue[]) {
    if (typeof item !== "string" || item.length === 0 || !isWellFormedString(item)) {
      throw badRequest(`${what} must hold non-empty strings`);
    }
    list.push(item);
  }
  return [...new Set(list)];
}

/** Properties of a new topic: only none are accepted (topics carry no properties here). */
export function checkNoTopicProperties(value: JsonValue | undefined): void {
  if (stringMapBody(value, "topic properties").size > 0) {
    throw badRequest("Topic properties are not supported: create the topic without properties");
  }
}

/** The partition count of a partitioned-topic creation: `N`, or `{"partitions": N, "properties": {}}`. */
export function partitionCountBody(body: JsonValue | undefined): number {
  let count: JsonValue | undefined = body;
  if (isObject(body)) {
    checkNoTopicProperties(body["properties"]);
    count = body["partitions"];
  }
  if (count === undefined) throw badRequest("The body must be the number of partitions");
  if (typeof count !== "number" || !Number.isInteger(count) || count < 1 || count > MAX_PARTITION_COUNT) {
    throw badRequest(`Number of partitions must be an integer in [1, 2^31-1], got ${JSON.stringify(String(count))}`);
  }
  return count;
}

/** The message id of a cursor reset or subscription creation (MessageIdImpl or ResetCursorData JSON). */
export function messageIdBody(body: JsonValue | undefined): MessageIdBody {
  if (!isObject(body)) throw badRequest('The body must be a message id: {"ledgerId": ..., "entryId": ...}');
  return {
    position: { ledgerId: int64Field(body, "ledgerId"), entryId: int64Field(body, "entryId") },
    partitionIndex: int32Field(body, "partitionIndex", -1),
    batchIndex: int32Field(body, "batchIndex", -1),
    excluded: booleanField(body, ["excluded", "isExcluded"]),
    properties: stringMapBody(body["properties"], "properties"),
  };
}
