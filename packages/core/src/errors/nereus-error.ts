// The one error base class of Nereus: a stable string `code`, a `retryable` flag and an optional `cause`.
// Identified by a Symbol.for brand so instances from duplicated module copies are still recognised.
import { type ErrorCode, RETRIABLE_BY_DEFAULT } from "./error-code.js";

const BRAND = Symbol.for("nereus.error");

export interface NereusErrorOptions {
  readonly retryable?: boolean;
  readonly cause?: unknown;
  /** Structured context for logs (never secrets, never payload bytes). */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Base class of every error Nereus raises on purpose. `code` is stable API; `message` is for humans. */
export class NereusError extends Error {
  readonly [BRAND] = true;
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: ErrorCode, message: string, options: NereusErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "NereusError";
    this.code = code;
    this.retryable = options.retryable ?? RETRIABLE_BY_DEFAULT.has(code);
    this.details = options.details ?? {};
  }

  /** True for any NereusError, including instances created by another copy of this module. */
  static is(value: unknown): value is NereusError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  /** True when `value` is a NereusError with the given code. */
  static hasCode(value: unknown, code: ErrorCode): value is NereusError {
    return NereusError.is(value) && value.code === code;
  }
}
