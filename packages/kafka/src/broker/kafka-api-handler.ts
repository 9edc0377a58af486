// The seam between the connection layer and the code that answers one Kafka API: a handler receives a decoded
// request and its context and returns the response body (or NO_RESPONSE, e.g. Produce with acks=0). The broker
// ships handlers for the data and admin APIs; consumer-group APIs (and FindCoordinator) are supplied by the
// composition root as `groupHandlers`, and are advertised in ApiVersions only when present.
import type { ApiKey } from "../protocol/api-key.js";
import type { KafkaRequest } from "../protocol/decode-request.js";
import type { ResponseBody, SupportedApiKey } from "../protocol/supported-apis.js";
import type { StorageProfile } from "@nereus/core";
import type { KafkaBrokerLogger } from "../logging/broker-logger.js";
import type { KafkaPrincipal } from "../security/kafka-principal.js";
import type { ConnectionTransport } from "../security/connection-transport.js";

/** An API by name, e.g. "JoinGroup" (the keys of `ApiKey`). */
export type ApiKeyName = keyof typeof ApiKey;

/** The decoded request of API `K`. */
export type ApiRequest<K extends SupportedApiKey> = Extract<KafkaRequest, { readonly apiKey: K }>;

/** Returned by a handler that must not answer (Produce with acks=0). */
export const NO_RESPONSE: unique symbol = Symbol.for("@nereus/kafka/no-response");
export type NoResponse = typeof NO_RESPONSE;

/** How clients reach this broker (FindCoordinator answers point here). */
export interface BrokerIdentity {
  readonly nodeId: number;
  readonly host: string;
  readonly port: number;
  /** The cluster id reported in Metadata. */
  readonly clusterId: string;
}

/** A topic as handlers outside the data path see it. */
interface TopicDescription {
  readonly name: string;
  /** Lowercase hyphenated UUID. */
  readonly topicId: string;
  readonly partitionCount: number;
  readonly profile: StorageProfile;
  readonly configs: Readonly<Record<string, string>>;
}

/** Read access to the broker's topics (e.g. to validate partitions in OffsetCommit). */
export interface TopicCatalog {
  /** The topic named `name`, or undefined when it does not exist. */
  lookup(name: string, signal?: AbortSignal): Promise<TopicDescription | undefined>;
  /** Every topic. */
  list(signal?: AbortSignal): Promise<TopicDescription[]>;
}

/** Everything a handler may know about the request besides its body. */
export interface RequestContext {
  /** Process-unique id of the connection. */
  readonly connectionId: number;
  /** The peer as the listener described it (e.g. "127.0.0.1:53122"). */
  readonly peer: string;
  readonly clientId: string | null;
  /** Who the connection authenticated as (ANONYMOUS when its listener asks for no authentication). */
  readonly principal: KafkaPrincipal;
  /** The listener the connection came in on and its security protocol. */
  readonly transport: ConnectionTransport;
  readonly apiKey: SupportedApiKey;
  readonly apiVersion: number;
  readonly correlationId: number;
  /** Wall-clock ms when the frame was handed to the connection. */
  readonly receivedAtMillis: number;
  /** Aborted when the connection or the broker closes (stop waiting; the answer will not be sent). */
  readonly signal: AbortSignal;
  /**
   * Aborted with `signal`, and also when the client stopped sending (it half-closed its side): a request waiting
   * for more data (a long-polling Fetch) answers what it has at once instead of holding the connection.
   */
  readonly waitSignal: AbortSignal;
  /** This broker as the connection's listener advertises it. */
  readonly broker: BrokerIdentity;
  readonly topics: TopicCatalog;
  readonly logger: KafkaBrokerLogger;
}

/**
 * Answers requests of API `K`. Invariants: `handle` is called synchronously, in arrival order, for the requests
 * of one connection (work done before its first `await` happens in that order; responses are sent in request
 * order whatever order handlers finish in); it resolves with a body valid for `request.apiVersion`; it throws
 * only on bugs (the connection then answers a generic error body and logs).
 */
export interface KafkaApiHandler<K extends SupportedApiKey = SupportedApiKey> {
  handle(context: RequestContext, request: ApiRequest<K>): Promise<ResponseBody<K> | NoResponse>;
}

/** Handlers by API name, each typed for its API. */
export type KafkaApiHandlers = { readonly [N in ApiKeyName]?: KafkaApiHandler<(typeof ApiKey)[N]> };
