// The broker's own admin endpoints next to /healthz and /metrics: the read-only admin API (/admin/v1) and the web
// console (/console) over it, plus the consumer-group lag gauges, which /metrics computes at scrape time.
import type { Registry } from "prom-client";
import type { AdminContext } from "./admin-context.js";
import { adminApiRoute } from "./admin-api-route.js";
import type { AdminRoute } from "./admin-server.js";
import { consoleRoute } from "./console-route.js";
import { registerGroupLagMetric } from "./group-lag-metric.js";

/** The admin API and console routes of the broker in `context`; registers the group-lag gauges on `metrics`. */
export function brokerAdminRoutes(context: AdminContext, metrics: Registry): AdminRoute[] {
  registerGroupLagMetric(metrics, context);
  return [adminApiRoute(context), consoleRoute()];
}
