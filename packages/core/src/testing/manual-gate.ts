// A durability gate a test opens or fails by hand: what a WAL writer would hand over with a write still under way.
import type { DurabilityGate } from "../spi/durability-gate.js";

/** A gate's `durable` promise plus the hands that settle it. Its rejection is handled, as a gate holder must. */
export interface ManualGate {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
  /** `{ durable: promise }` (no shared words). */
  readonly gate: DurabilityGate;
}

/** A new, closed manual gate. */
export function manualGate(): ManualGate {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject, gate: { durable: promise } };
}
