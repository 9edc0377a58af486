// Start-up step 5 (when enabled): the admin HTTP server — health (200 "degraded" while the store cannot write,
// storage-health.ts: reads are still served) and the metrics in text format. Registered for undo.
import type { Registry } from "prom-client";
import { type AdminRoute, type AdminServer, startAdminServer } from "../admin/admin-server.js";
import type { BrokerConfig } from "../config/broker-config.js";
import type { KafkaListener } from "../listener/kafka-listener.js";
import { renderMetrics } from "../metrics/broker-registry.js";
import type { BrokerStorage } from "../storage/open-storage.js";
import { storageHealthReport } from "../storage/storage-health.js";
import type { StartupUndo } from "./startup-undo.js";

/** Starts the admin server of `config`; `serving` says whether the broker is up (false before start and at shutdown). */
export async function startAdmin(
  config: BrokerConfig,
  startedAt: number,
  serving: () => boolean,
  listener: KafkaListener,
  storage: BrokerStorage,
  metrics: Registry,
  undo: StartupUndo,
  routes: readonly AdminRoute[] = [],
): Promise<AdminServer> {
  const admin = await startAdminServer({
    host: config.admin.host,
    port: config.admin.port,
    // 200 "degraded" while the store cannot write (storage-health.ts): reads are still served.
    health: () => ({
      ok: serving(),
      nodeId: config.nodeId,
      uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
      connections: listener.connectionCount,
      ...storageHealthReport(storage.writeHealth()),
    }),
    metrics: () => renderMetrics(metrics),
    routes,
  });
  undo.push(() => admin.close());
  return admin;
}
