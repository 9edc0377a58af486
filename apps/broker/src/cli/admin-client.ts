// Reads the broker's admin API for `nereus admin`: one GET with a deadline (over https with an optional CA bundle,
// with an optional bearer token), the JSON body, and failures as one-line {@link AdminRequestError}s — an
// unreachable broker names the address and the reason, an error answer its status and the broker's message, a 401
// how to give a token. The token is never part of a message.
import http from "node:http";
import https from "node:https";

/** A request to the admin API that failed; the message is one line for the terminal. */
export class AdminRequestError extends Error {
  override readonly name = "AdminRequestError";
  /** The HTTP status, or undefined when no answer came. */
  readonly status: number | undefined;

  constructor(message: string, status: number | undefined, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
  }
}

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === "string") return cause.code;
  if (typeof cause?.message === "string") return cause.message;
  return error instanceof Error ? error.message : String(error);
}

/** How requests authenticate and verify the broker. */
export interface AdminCredentials {
  /** Sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** PEM CA certificates an https broker's certificate must chain to (default: the system's CAs). */
  readonly ca?: string;
}

interface AdminResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  text(): Promise<string>;
}

/** One GET of `url`; rejects when no answer came within `timeoutMs` (a TimeoutError) or the connection failed. */
function get(url: URL, timeoutMs: number, credentials: AdminCredentials): Promise<AdminResponse> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (credentials.token !== undefined) headers.authorization = `Bearer ${credentials.token}`;
  const options = { headers, signal: AbortSignal.timeout(timeoutMs) };
  return new Promise((resolve, reject) => {
    const onResponse = (response: http.IncomingMessage): void => {
      const chunks: Buffer[] = [];
      const body = new Promise<string>((resolveBody, rejectBody) => {
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolveBody(Buffer.concat(chunks).toString("utf8")));
        response.on("error", rejectBody);
      });
      const status = response.statusCode ?? 0;
      resolve({
        status,
        statusText: response.statusMessage ?? "",
        ok: status >= 200 && status < 300,
        text: () => body,
      });
    };
    const request =
      url.protocol === "https:"
        ? https.get(url, { ...options, ...(credentials.ca === undefined ? {} : { ca: credentials.ca }) }, onResponse)
        : http.get(url, options, onResponse);
    request.on("error", (error) =>
      reject(
        error.name === "AbortError"
          ? Object.assign(new Error("timeout"), { name: "TimeoutError" })
          : new Error(error.message, { cause: error }),
      ),
    );
  });
}

/** The JSON body of GET `path` at `base`, or undefined for a 404 when `notFoundIsUndefined`. */
export async function getAdminJson<T>(
  base: URL,
  path: string,
  timeoutMs: number,
  options: { readonly notFoundIsUndefined?: boolean; readonly credentials?: AdminCredentials } = {},
): Promise<T | undefined> {
  const url = new URL(path, base);
  let response: AdminResponse;
  try {
    response = await get(url, timeoutMs, options.credentials ?? {});
  } catch (error) {
    const reason =
      error instanceof Error && error.name === "TimeoutError"
        ? `no answer within ${String(timeoutMs)} ms`
        : reasonOf(error);
    throw new AdminRequestError(`cannot reach the broker's admin API at ${base.origin} (${reason})`, undefined, {
      cause: error,
    });
  }
  const text = await response.text();
  if (response.status === 401)
    throw new AdminRequestError(
      `${url.pathname}: 401 ${options.credentials?.token === undefined ? "the broker asks for a token (set NEREUS_ADMIN_TOKEN or --token-file)" : "the broker refused the token"}`,
      401,
    );
  if (response.status === 404 && options.notFoundIsUndefined === true) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new AdminRequestError(
      `${url.href} answered ${String(response.status)} without JSON: is ${base.origin} a Nereus admin port?`,
      response.status,
    );
  }
  if (!response.ok) {
    const message = (body as { error?: { message?: unknown } }).error?.message;
    throw new AdminRequestError(
      `${url.pathname}: ${String(response.status)} ${typeof message === "string" ? message : response.statusText}`,
      response.status,
    );
  }
  return body as T;
}
