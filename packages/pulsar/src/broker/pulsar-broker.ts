// The Pulsar side of a broker: the managed ledgers (and with them the cursor store) over the broker's metadata,
// object and stream stores, the durable subscriptions shared by every connection, and the per-connection command
// handlers. Sans-socket: a listener opens one PulsarConnection per client socket and feeds it frames; the
// connection writes its frames through the sink it was given. Namespace and topic policies (deduplication, storage
// profile, auto topic creation) override the broker's defaults; topics are created on first use as they say, with
// the storage profile they name; every topic's schema versions are kept in the schema registry.
import { ErrorCode, NereusError } from "@nereus/core";
import { canonicalizeProfile } from "@nereus/core/internal";
import { type BrokerAuth, type PulsarAuthOptions, createBrokerAuth } from "../auth/broker-auth.js";
import { TopicDeduplications } from "../dedup/topic-deduplications.js";
import { ManagedLedgerFactory, type ManagedLedgerFactoryOptions } from "../ledger/managed-ledger-factory.js";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../protocol/index.js";
import { SchemaRegistry } from "../schemas/schema-registry.js";
import { PolicyResolver } from "../topics/policy-resolver.js";
import { PolicyStore } from "../topics/policy-store.js";
import { parseTopicName } from "../topics/topic-name.js";
import {
  type AutoTopicCreation,
  DEFAULT_AUTO_TOPIC_CREATION,
  checkAutoTopicCreation,
} from "../topics/topic-policies.js";
import { PublishBuffer } from "./publish-backpressure.js";
import { PulsarConnection, type ConnectionSink } from "./pulsar-connection.js";
import { SubscriptionRegistry } from "./subscription-registry.js";
import { TopicMessageCounters } from "./topic-message-counters.js";
import { TopicProducers } from "./topic-producers.js";
import type { PulsarTopicOwnership } from "./topic-lookup.js";

export interface PulsarBrokerOptions {
  /** The stores, cluster and default profile the managed ledgers use. */
  readonly ledgers: ManagedLedgerFactoryOptions;
  /** `pulsar://host:port`: what LOOKUP tells clients to connect to. */
  readonly advertisedUrl: string;
  /** `pulsar+ssl://host:port` of the broker's TLS listener: what LOOKUP tells TLS clients (brokerServiceUrlTls). */
  readonly advertisedUrlTls?: string;
  /** With several brokers sharing the topics: who owns each topic (LOOKUP redirects there). Default: this broker. */
  readonly topicOwnership?: PulsarTopicOwnership;
  /** Largest message accepted (CONNECTED.max_message_size); default 5 MiB. */
  readonly maxMessageBytes?: number;
  /** Reported in CONNECTED (default "Nereus"). */
  readonly serverVersion?: string;
  /** Prefix of the producer names the broker assigns (default "nereus"). */
  readonly producerNamePrefix?: string;
  /** Failures no client is told about (dispatch errors, failed closes); default ignored. */
  readonly onError?: (error: unknown) => void;
  /** Broker-wide default of broker-side deduplication by producer sequence id (default false). */
  readonly deduplication?: boolean;
  /** Whether a topic (canonical name) is deduplicated: its topic or namespace policy; default `deduplication`. */
  readonly deduplicationEnabled?: (topic: string) => Promise<boolean>;
  /** Entries a deduplicated topic stores between two checkpoints of its sequence table (default 1,000). */
  readonly deduplicationCheckpointEntries?: number;
  /** How long deduplication remembers a producer name no producer is attached under (default 6 hours). */
  readonly deduplicationInactiveProducerMs?: number;
  /** Broker-wide default of automatic topic creation (default: allowed, non-partitioned, 1 partition). */
  readonly autoTopicCreation?: AutoTopicCreation;
  /** How long a policy read may be reused by the broker's lookups, in milliseconds (default 1,000). */
  readonly policyCacheMs?: number;
  /** Pending SENDs at which a connection stops being read, until half are answered (default 1,000). */
  readonly maxPendingPublishRequestsPerConnection?: number;
  /** Bytes of pending SENDs, broker-wide, at which every connection stops being read until half drained (512 MiB). */
  readonly maxPendingPublishBytes?: number;
  /** Token authentication and permission checks of clients (default: both off). */
  readonly auth?: PulsarAuthOptions;
}

/** Entries a deduplicated topic stores between two checkpoints, by default (as Pulsar brokers do). */
const DEFAULT_DEDUP_CHECKPOINT_ENTRIES = 1_000;

/** How long deduplication remembers an inactive producer name, by default (as Pulsar brokers do). */
const DEFAULT_DEDUP_INACTIVE_PRODUCER_MS = 6 * 60 * 60 * 1_000;

/** Pending SENDs a connection may hold before it stops being read, by default (as Pulsar brokers do). */
const DEFAULT_MAX_PENDING_PUBLISH_REQUESTS = 1_000;

/** Bytes of pending SENDs the broker holds before its connections stop being read, by default. */
const DEFAULT_MAX_PENDING_PUBLISH_BYTES = 512 * 1024 * 1024;

/** What the connections of one broker share. */
export interface PulsarBrokerContext {
  readonly ledgers: ManagedLedgerFactory;
  readonly subscriptions: SubscriptionRegistry;
  /** The producers of every topic, across connections (access modes, producer names, topic epochs). */
  readonly producers: TopicProducers;
  /** The deduplication states of the deduplicated topics. */
  readonly deduplication: TopicDeduplications;
  /** Whether `topic` (a canonical name) is deduplicated, by policy or the broker default. */
  deduplicationEnabled(topic: string): Promise<boolean>;
  /** Namespace and topic policies over the broker's defaults (`policies.store` reads and changes them). */
  readonly policies: PolicyResolver;
  /** The schema versions of every topic. */
  readonly schemas: SchemaRegistry;
  readonly advertisedUrl: string;
  /** The TLS listener's URL, when there is one. */
  readonly advertisedUrlTls: string | undefined;
  readonly topicOwnership: PulsarTopicOwnership | undefined;
  readonly maxMessageBytes: number;
  readonly serverVersion: string;
  readonly onError: (error: unknown) => void;
  /** Pending SENDs at which a connection stops being read. */
  readonly maxPendingPublishRequestsPerConnection: number;
  /** The bytes of every connection's pending SENDs. */
  readonly publishBuffer: PublishBuffer;
  /** Messages and bytes in and out, per topic. */
  readonly messageCounters: TopicMessageCounters;
  /** How clients are authenticated and authorized, and the permissions granted to roles. */
  readonly auth: BrokerAuth;
  /** A producer name no other producer of this broker process was given. */
  nextProducerName(): string;
}

/** The Pulsar broker: opens connections, owns the ledgers and subscriptions. */
export interface PulsarBroker {
  readonly context: PulsarBrokerContext;
  /** A new connection whose frames go to `sink`. Throws STORAGE_CLOSED once the broker is closed. */
  openConnection(sink: ConnectionSink): PulsarConnection;
  /**
   * Closes every connection, the subscriptions, the deduplication states (each checkpointed) and the ledgers (the
   * stores stay open). Idempotent.
   */
  close(): Promise<void>;
}

/** Creates a Pulsar broker over the stores of `options.ledgers`; checks the options, no I/O. */
export function createPulsarBroker(options: PulsarBrokerOptions): PulsarBroker {
  if (!/^pulsar:\/\/[^/]+:\d+$/.test(options.advertisedUrl)) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `advertisedUrl must be pulsar://host:port, got ${options.advertisedUrl}`,
      { retryable: false },
    );
  }
  if (options.advertisedUrlTls !== undefined && !/^pulsar\+ssl:\/\/[^/]+:\d+$/.test(options.advertisedUrlTls)) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `advertisedUrlTls must be pulsar+ssl://host:port, got ${options.advertisedUrlTls}`,
      { retryable: false },
    );
  }
  const checkpointEntries = options.deduplicationCheckpointEntries ?? DEFAULT_DEDUP_CHECKPOINT_ENTRIES;
  checkInteger("deduplicationCheckpointEntries", checkpointEntries, 1);
  const inactiveProducerMs = options.deduplicationInactiveProducerMs ?? DEFAULT_DEDUP_INACTIVE_PRODUCER_MS;
  checkInteger("deduplicationInactiveProducerMs", inactiveProducerMs, 0);
  const maxPendingPublishes = options.maxPendingPublishRequestsPerConnection ?? DEFAULT_MAX_PENDING_PUBLISH_REQUESTS;
  checkInteger("maxPendingPublishRequestsPerConnection", maxPendingPublishes, 1);
  const maxPendingPublishBytes = options.maxPendingPublishBytes ?? DEFAULT_MAX_PENDING_PUBLISH_BYTES;
  checkInteger("maxPendingPublishBytes", maxPendingPublishBytes, 1);
  const onError = options.onError ?? ((): void => undefined);
  const ledgers = new ManagedLedgerFactory(options.ledgers);
  const { metadata, clock } = options.ledgers;
  const policies = new PolicyResolver(
    new PolicyStore(metadata, ledgers.topics.keyspace, clock),
    {
      deduplicationEnabled: options.deduplication ?? false,
      storageProfile: canonicalizeProfile(options.ledgers.defaultProfile),
      autoTopicCreation: checkAutoTopicCreation(options.autoTopicCreation ?? DEFAULT_AUTO_TOPIC_CREATION),
    },
    options.policyCacheMs,
  );
  const prefix = `${options.producerNamePrefix ?? "nereus"}-${Date.now().toString(36)}`;
  let producers = 0;
  const context: PulsarBrokerContext = {
    ledgers,
    subscriptions: new SubscriptionRegistry({ permitOverdraft: true, onError }),
    producers: new TopicProducers(),
    deduplication: new TopicDeduplications({
      metadata: options.ledgers.metadata,
      streams: options.ledgers.streams,
      keyspace: ledgers.topics.keyspace,
      checkpointEntries,
      inactiveProducerMs,
      clock: clock ?? Date.now,
      onError,
    }),
    deduplicationEnabled:
      options.deduplicationEnabled ?? ((topic) => policies.deduplicationEnabled(parseTopicName(topic))),
    policies,
    schemas: new SchemaRegistry(metadata, ledgers.topics.keyspace, clock),
    advertisedUrl: options.advertisedUrl,
    advertisedUrlTls: options.advertisedUrlTls,
    topicOwnership: options.topicOwnership,
    maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    serverVersion: options.serverVersion ?? "Nereus",
    onError,
    maxPendingPublishRequestsPerConnection: maxPendingPublishes,
    publishBuffer: new PublishBuffer(maxPendingPublishBytes),
    messageCounters: new TopicMessageCounters(clock === undefined ? {} : { clock }),
    auth: createBrokerAuth(options.auth, metadata, ledgers.topics.keyspace.root, clock),
    nextProducerName() {
      producers += 1;
      return `${prefix}-${String(producers)}`;
    },
  };
  const connections = new Set<PulsarConnection>();
  let closing: Promise<void> | undefined;
  return {
    context,
    openConnection(sink) {
      if (closing !== undefined) {
        throw new NereusError(ErrorCode.STORAGE_CLOSED, "the Pulsar broker is closed", { retryable: false });
      }
      const connection = new PulsarConnection(context, sink, () => connections.delete(connection));
      connections.add(connection);
      return connection;
    },
    close() {
      closing ??= (async () => {
        for (const connection of [...connections]) connection.close();
        await context.subscriptions.close();
        await context.deduplication.close();
        await ledgers.close();
      })();
      return closing;
    },
  };
}

function checkInteger(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new NereusError(
      ErrorCode.INVALID_ARGUMENT,
      `${name} must be an integer >= ${String(min)}, got ${String(value)}`,
      {
        retryable: false,
      },
    );
  }
}
