// The writer thread's view of the durability gates its txns carry (core's SharedDurabilityGate: shared words, no
// messages): whether a gate has settled right now, how many queued operations the next round takes, and a blocking
// wait (Atomics.wait on the gate's change counter) until a gate opens, fails or the round's deadline passes.
import { DurabilityGateWord, type SharedDurabilityGate } from "@nereus/core";
import type { WriterOperation } from "./sqlite-writer-protocol.js";

/**
 * Blocks until `gate` opened (undefined), failed or `deadline` (ms since the epoch) passed: then why it did not
 * open. `timeoutMs` only words the timeout's reason.
 */
export function waitForGate(gate: SharedDurabilityGate, deadline: number, timeoutMs: number): string | undefined {
  const view = new BigInt64Array(gate.words);
  const target = BigInt(gate.sequence);
  for (;;) {
    const changes = Atomics.load(view, DurabilityGateWord.changes);
    if (Atomics.load(view, DurabilityGateWord.durable) >= target) return undefined;
    if (Atomics.load(view, DurabilityGateWord.failed) !== 0n) return "the write failed";
    const left = deadline - Date.now();
    if (left <= 0) return `the write was not durable within ${String(timeoutMs)} ms`;
    Atomics.wait(view, DurabilityGateWord.changes, changes, left);
  }
}

/** Whether every gate of `operation` has settled (opened or failed) right now; never waits. */
export function gatesSettled(operation: WriterOperation): boolean {
  if (operation.kind !== "txns") return true;
  for (const request of operation.txns) {
    if (request.gate === undefined) continue;
    const view = new BigInt64Array(request.gate.words);
    if (
      Atomics.load(view, DurabilityGateWord.durable) < BigInt(request.gate.sequence) &&
      Atomics.load(view, DurabilityGateWord.failed) === 0n
    )
      return false;
  }
  return true;
}

/**
 * How many operations at the head of `queue` the next round takes: the first one (its gates are waited for in the
 * round) and those after it whose gates have settled already, up to the first that would have to wait. A txn whose
 * write is still in flight then never holds back the commit of the txns ahead of it.
 */
export function readyCount(queue: readonly WriterOperation[]): number {
  let count = 1;
  while (count < queue.length && gatesSettled(queue[count] as WriterOperation)) count += 1;
  return count;
}
