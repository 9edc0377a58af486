// The request and response of the Pulsar admin API without HTTP: the method, the decoded path segments after
// `/admin/v2`, the query parameters and the parsed JSON body in; a status and a JSON body (or raw bytes) out. Failures are
// AdminFailures carrying the status and the reason Pulsar's REST errors put in `{"reason": ...}`.
import type { JsonValue } from "./json-text.js";

/** HTTP methods the admin API serves. */
export type AdminMethod = "GET" | "PUT" | "POST" | "DELETE";

/** One admin call. */
export interface AdminRequest {
  readonly method: AdminMethod;
  /** The path after `/admin/v2/`, split at `/` and decoded (each segment exactly as the client meant it). */
  readonly segments: readonly string[];
  /** Query parameters (the last occurrence of a repeated one). */
  readonly query: ReadonlyMap<string, string>;
  /** The parsed JSON body, or undefined when the request had none (an empty body counts as none). */
  readonly body: JsonValue | undefined;
  readonly signal?: AbortSignal;
  /** The role the caller authenticated as (its bearer token's); undefined when it presented none. */
  readonly role?: string;
}

/** The answer: a status and a JSON body (none for 204), or raw bytes with their headers (a peeked message). */
export interface AdminResponse {
  readonly status: number;
  readonly body?: unknown;
  readonly binary?: { readonly bytes: Uint8Array; readonly headers: Readonly<Record<string, string>> };
}

/** The statuses Pulsar's admin API answers failures with. */
export const AdminStatus = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

/** A refused or failed admin call: HTTP `status` and the `reason` the client shows. */
export class AdminFailure extends Error {
  readonly status: number;

  constructor(status: number, reason: string, options: { readonly cause?: unknown } = {}) {
    super(reason, options);
    this.name = "AdminFailure";
    this.status = status;
  }

  /** The answer carrying this failure (`{"reason": ...}`, as Pulsar's ErrorData). */
  toResponse(): AdminResponse {
    return { status: this.status, body: { reason: this.message } };
  }
}

/** 400: the request itself is malformed (a path segment, a query parameter or the body). */
export function badRequest(reason: string): AdminFailure {
  return new AdminFailure(AdminStatus.BAD_REQUEST, reason);
}

/** 404. */
export function notFound(reason: string): AdminFailure {
  return new AdminFailure(AdminStatus.NOT_FOUND, reason);
}

/** 409: what the call would create exists already. */
export function conflict(reason: string): AdminFailure {
  return new AdminFailure(AdminStatus.CONFLICT, reason);
}

/** 412: the state does not allow the call now (consumers connected, a subscription busy). */
export function preconditionFailed(reason: string): AdminFailure {
  return new AdminFailure(AdminStatus.PRECONDITION_FAILED, reason);
}

/** 405: the call exists but not for this kind of resource (e.g. skip on a partitioned topic). */
export function methodNotAllowed(reason: string): AdminFailure {
  return new AdminFailure(AdminStatus.METHOD_NOT_ALLOWED, reason);
}

/** 204, no body. */
export const NO_CONTENT: AdminResponse = Object.freeze({ status: 204 });

/** 200 with `body`. */
export function ok(body: unknown): AdminResponse {
  return { status: 200, body };
}
