// What every admin operation works over: the broker's topics and subscriptions, the tenants and namespaces, the
// metadata store (for listings) and this cluster's identity.
import type { MetadataStore } from "@nereus/core";
import type { NamespaceRegistry } from "./namespace-registry.js";
import type { TopicAccess } from "./topic-access.js";

/** The shared state of one admin API instance. */
export interface AdminContext {
  readonly topics: TopicAccess;
  readonly namespaces: NamespaceRegistry;
  readonly metadata: MetadataStore;
  /** This cluster's name (the only one the API lists). */
  readonly cluster: string;
  /** `http://host:port` of the admin API (the cluster's serviceUrl). */
  readonly serviceUrl: string;
  /** `pulsar://host:port` clients connect to (the cluster's brokerServiceUrl). */
  readonly brokerServiceUrl: string;
}
