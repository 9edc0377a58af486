// What a log line's fields become before pino writes them: errors (at any depth) as {type, message, stack, code,
// cause, ...} with their causes followed (pino's errWithCause), bigints as decimal strings, the values of
// secret-looking keys (password, secret, token, authorization, credentials, API keys, cookies, private keys)
// replaced by "[redacted]" at any depth, and fields named like the line's own keys (ts, level, msg) renamed
// `field_<name>` so they cannot overwrite them. Plain objects and arrays are copied, never changed in place.
import { stdSerializers } from "pino";

/** Keys whose values never reach a log line. */
const SECRET_KEY =
  /passw(or)?d|passphrase|secret|token|authori[sz]ation|credential|api[-_]?key|cookie|private[-_]?key/i;

/** The line's own keys (pino writes them; a field of the same name would shadow them). */
const RESERVED_KEYS: ReadonlySet<string> = new Set(["ts", "level", "msg"]);

/** What a redacted value reads as. */
const REDACTED = "[redacted]";

const MAX_DEPTH = 6;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function redactError(serialized: Record<string, unknown>, depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(serialized)) {
    result[key] = key === "stack" || key === "message" ? value : logValue(key, value, depth + 1);
  }
  return result;
}

function logValue(key: string, value: unknown, depth: number): unknown {
  if (SECRET_KEY.test(key)) return REDACTED;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Error) return redactError(stdSerializers.errWithCause(value), depth);
  if (depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => logValue("", item, depth + 1));
  if (isPlainObject(value)) return logObject(value, depth + 1);
  return value;
}

function logObject(fields: Readonly<Record<string, unknown>>, depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) result[key] = logValue(key, value, depth);
  return result;
}

/** The fields of one log line, ready for JSON (see the module header). */
export function logFields(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    result[RESERVED_KEYS.has(key) ? `field_${key}` : key] = logValue(key, value, 0);
  }
  return result;
}
