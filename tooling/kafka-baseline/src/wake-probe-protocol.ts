// What the thread-wake probe (machine-probes.ts) and its worker thread (wake-probe-thread.ts) share: the meaning of
// the one shared word they wake each other through, and the message that says the worker is ready.

/** Values of the shared word: an odd ping, the next even number as its pong, or `stop`. */
export const WakeWord = { stop: -1 } as const;

/** The worker's only message, sent once it waits for pings. */
export interface WakeProbeReady {
  readonly kind: "ready";
}
