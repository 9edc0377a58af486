// Start-up step 5 (when enabled): the admin HTTP server — health (200 "degraded" while the store cannot write,
// storage-health.ts: reads are still served) and the metrics in text format — over HTTPS with admin.tls, behind the
// admin.auth gate (admin-auth.ts). An admin API open to everyone on a non-loopback address is warned about. Registered
// for undo.
import type { Registry } from "prom-client";
import { createAdminAuthenticator } from "../admin/admin-auth.js";
import { type AdminRoute, type AdminServer, startAdminServer } from "../admin/admin-server.js";
import { gateWithPulsarTokens } from "../admin/pulsar-admin-route.js";
import { adminAuthRequired } from "../config/admin-auth-config.js";
import type { BrokerConfig } from "../config/broker-config.js";
import type { KafkaListener } from "../listener/kafka-listener.js";
import type { TlsMaterial } from "../listener/tls-material.js";
import type { BrokerLogger } from "../logging/broker-logger.js";
import { renderMetrics } from "../metrics/broker-registry.js";
import type { BrokerStorage } from "../storage/open-storage.js";
import { storageHealthReport } from "../storage/storage-health.js";
import type { StartupUndo } from "./startup-undo.js";

const LOOPBACK = /^(127\.|::1$|\[::1\]$|localhost$)/;

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
  security: { readonly tls?: TlsMaterial | undefined; readonly logger?: BrokerLogger } = {},
): Promise<AdminServer> {
  const { auth, host } = config.admin;
  if (!adminAuthRequired(auth) && !LOOPBACK.test(host))
    security.logger?.warn("the admin API is open to every client that reaches it: configure admin.auth", { host });
  const admin = await startAdminServer({
    authenticator: gateWithPulsarTokens(createAdminAuthenticator(auth), config),
    ...(security.tls === undefined ? {} : { tls: security.tls }),
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
