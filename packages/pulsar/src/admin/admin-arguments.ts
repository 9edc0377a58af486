// The checks of every path segment and query parameter of the admin API, before any I/O: tenant and namespace names
// (Pulsar's `[-=:.\w]+`), topic names (parseTopicName's rules), subscription names (cursor name rules), integers and
// booleans. Each refusal is a 400 naming what was wrong. Pure.
import { NereusError, encodeStrictUtf8 } from "@nereus/core";
import { isWellFormedString } from "@nereus/core/internal";
import { type TopicName, parseTopicName } from "../topics/topic-name.js";
import { badRequest } from "./admin-exchange.js";

/** Pulsar's rule for tenant, namespace and cluster names. */
const NAMED_ENTITY = /^[-=:.\w]+$/;
/** Longest tenant or namespace name (the topic name as a whole is bounded by parseTopicName). */
const MAX_ENTITY_NAME_LENGTH = 255;
/** Longest subscription name, in UTF-8 bytes (the cursor name limit). */
const MAX_SUBSCRIPTION_NAME_BYTES = 1024;
const DECIMAL = /^(0|[1-9]\d*)$/;

/** A tenant, namespace or cluster name; 400 unless it matches `[-=:.\w]+` and is at most 255 characters. */
export function entityName(value: string, what: string): string {
  if (!NAMED_ENTITY.test(value) || value.length > MAX_ENTITY_NAME_LENGTH) {
    throw badRequest(`Invalid ${what} name ${JSON.stringify(value)}: expected 1 to 255 characters of [-=:.\\w]`);
  }
  return value;
}

/** The persistent topic `{tenant}/{namespace}/{localName}`; 400 when parseTopicName refuses it. */
export function topicNameOf(tenant: string, namespace: string, localName: string): TopicName {
  entityName(tenant, "tenant");
  entityName(namespace, "namespace");
  try {
    return parseTopicName(`persistent://${tenant}/${namespace}/${localName}`);
  } catch (error) {
    throw badRequest(NereusError.is(error) ? error.message : String(error));
  }
}

/** A subscription name: non-empty, well-formed UTF-16, at most 1,024 UTF-8 bytes. */
export function subscriptionName(value: string): string {
  if (value.length === 0) throw badRequest("Subscription name must not be empty");
  if (!isWellFormedString(value)) throw badRequest("Subscription name contains an unpaired UTF-16 surrogate");
  const bytes = encodeStrictUtf8(value).length;
  if (bytes > MAX_SUBSCRIPTION_NAME_BYTES) {
    throw badRequest(`Subscription name is ${String(bytes)} UTF-8 bytes; the maximum is 1024`);
  }
  return value;
}

/** A decimal integer in [0, max] written without sign or leading zeros. */
export function decimalInteger(value: string, what: string, max = Number.MAX_SAFE_INTEGER): number {
  const number = DECIMAL.test(value) ? Number(value) : Number.NaN;
  if (!(number <= max)) {
    throw badRequest(`${what} must be an integer in [0, ${String(max)}], got ${JSON.stringify(value)}`);
  }
  return number;
}

/** A boolean query parameter (`true`/`false`, any case), `fallback` when absent. */
export function booleanParameter(query: ReadonlyMap<string, string>, name: string, fallback: boolean): boolean {
  const value = query.get(name);
  if (value === undefined) return fallback;
  const lower = value.toLowerCase();
  if (lower === "true") return true;
  if (lower === "false") return false;
  throw badRequest(`Query parameter ${name} must be true or false, got ${JSON.stringify(value)}`);
}
