// Reads the broker's admin API for `nereus admin`: one GET with a deadline, the JSON body, and failures as
// one-line {@link AdminRequestError}s — an unreachable broker names the address and the reason, an error answer
// its status and the broker's message.

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

/** The JSON body of GET `path` at `base`, or undefined for a 404 when `notFoundIsUndefined`. */
export async function getAdminJson<T>(
  base: URL,
  path: string,
  timeoutMs: number,
  options: { readonly notFoundIsUndefined?: boolean } = {},
): Promise<T | undefined> {
  const url = new URL(path, base);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "application/json" } });
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
