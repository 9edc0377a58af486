// Races a promise against an AbortSignal: the caller stops waiting when the signal fires, the work it started keeps
// running (its eventual rejection is observed, never unhandled). The error an abort produces is the caller's, so
// each caller keeps its own vocabulary (CANCELLED, TIMEOUT, an ambiguous metadata error, a provider's abort error).
// It does not cancel the work and does not touch buffers.

/**
 * `promise`, or a rejection with `abortError()` once `signal` aborts first (at once when it already has). Without a
 * signal it returns `promise` itself. The listener leaves the signal as soon as either side settles.
 */
export function raceAbort<T>(
  promise: Promise<T>,
  signal: AbortSignal | undefined,
  abortError: () => unknown,
): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(abortError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
