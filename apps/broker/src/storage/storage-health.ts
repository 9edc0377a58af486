// What /healthz says about storage. A broker whose store cannot write (a full disk) still serves reads, Metadata and
// consumer groups, so it stays live: 200 with status "degraded" and the reason, not 503 — an orchestrator must not
// restart it (a restart does not free space), and a load balancer should keep sending it the clients it can serve.
// Writes resume by themselves once the store writes again; the status is "ok" from that write on.
import type { StoreWriteHealth } from "@nereus/object-wal";

/** The storage part of the health answer: `status` "degraded" while the store cannot write, and the details. */
export interface StorageHealthReport {
  readonly status?: "degraded";
  readonly storage:
    | { readonly writable: true }
    | { readonly writable: false; readonly reason: string; readonly since: string; readonly failedWrites: number };
}

/** The report for `health` (the object store's write health). */
export function storageHealthReport(health: StoreWriteHealth): StorageHealthReport {
  if (health.writable) return { storage: { writable: true } };
  return {
    status: "degraded",
    storage: {
      writable: false,
      reason: health.reason,
      since: new Date(health.since).toISOString(),
      failedWrites: health.failures,
    },
  };
}
