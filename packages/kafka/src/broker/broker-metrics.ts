// Counters and gauges of one Kafka broker, collected as plain samples (name, help, type, labels, value) so the
// composition root can render them in any format (Prometheus text in apps/broker). Counting is synchronous and
// allocation-free on the hot paths (a topic's traffic entry is made once, at its first produce or fetch).

/** One metric family. */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: "counter" | "gauge";
  readonly samples: ReadonlyArray<{ readonly labels: Readonly<Record<string, string>>; readonly value: number }>;
}

/** Read side of the broker's metrics. */
export interface KafkaBrokerMetrics {
  /** Every metric family with its current samples. */
  collect(): MetricFamily[];
}

/** Values the broker reads when metrics are collected. */
export interface BrokerGauges {
  readonly partitions: () => number;
  readonly fenced: () => number;
  readonly readAheadBytes: () => number;
  readonly tailCacheBytes: () => number;
}

/** Records and bytes of one topic produced and fetched. */
interface TopicTraffic {
  producedRecords: number;
  producedBytes: number;
  fetchedRecords: number;
  fetchedBytes: number;
}

/** The broker's counters (internal; exposed read-only through {@link KafkaBrokerMetrics}). */
export class BrokerMetrics implements KafkaBrokerMetrics {
  connectionsOpened = 0;
  connectionsActive = 0;
  readonly requests = new Map<string, number>();
  readonly requestErrors = new Map<string, number>();
  /** Checks an ACL denied, by API. */
  readonly authorizationDenials = new Map<string, number>();
  readonly produceErrors = new Map<number, number>();
  producedBatches = 0;
  producedRecords = 0;
  producedBytes = 0;
  duplicateBatches = 0;
  fetchedBytes = 0;
  fetchWaits = 0;
  fetchTailHits = 0;
  fetchReadAheadHits = 0;
  fetchStorageReads = 0;
  partitionFences = 0;
  partitionLoads = 0;
  replayedBatches = 0;
  closedConnections = 0;
  retentionSweeps = 0;
  retentionDeletedRecords = 0;
  retentionFailures = 0;
  authenticationSuccesses = 0;
  authenticationFailures = 0;
  /** Per topic name, from its first produce or fetch on (kept after the topic is deleted: counters never go back). */
  readonly topics = new Map<string, TopicTraffic>();
  readonly #gauges: BrokerGauges;

  constructor(gauges: BrokerGauges) {
    this.#gauges = gauges;
  }

  request(api: string): void {
    this.requests.set(api, (this.requests.get(api) ?? 0) + 1);
  }

  authorizationDenied(api: string): void {
    this.authorizationDenials.set(api, (this.authorizationDenials.get(api) ?? 0) + 1);
  }

  requestError(api: string): void {
    this.requestErrors.set(api, (this.requestErrors.get(api) ?? 0) + 1);
  }

  /** Records and bytes of `topic` appended. */
  topicProduced(topic: string, records: number, bytes: number): void {
    const traffic = this.#traffic(topic);
    traffic.producedRecords += records;
    traffic.producedBytes += bytes;
  }

  /** Records and bytes of `topic` returned by Fetch. */
  topicFetched(topic: string, records: number, bytes: number): void {
    const traffic = this.#traffic(topic);
    traffic.fetchedRecords += records;
    traffic.fetchedBytes += bytes;
  }

  #traffic(topic: string): TopicTraffic {
    let traffic = this.topics.get(topic);
    if (traffic === undefined) {
      traffic = { producedRecords: 0, producedBytes: 0, fetchedRecords: 0, fetchedBytes: 0 };
      this.topics.set(topic, traffic);
    }
    return traffic;
  }

  produceError(errorCode: number): void {
    this.produceErrors.set(errorCode, (this.produceErrors.get(errorCode) ?? 0) + 1);
  }

  collect(): MetricFamily[] {
    const counter = (name: string, help: string, value: number): MetricFamily => ({
      name,
      help,
      type: "counter",
      samples: [{ labels: {}, value }],
    });
    const gauge = (name: string, help: string, value: number): MetricFamily => ({
      name,
      help,
      type: "gauge",
      samples: [{ labels: {}, value }],
    });
    const labelled = (
      name: string,
      help: string,
      label: string,
      values: ReadonlyMap<string | number, number>,
    ): MetricFamily => ({
      name,
      help,
      type: "counter",
      samples: [...values].map(([key, value]) => ({ labels: { [label]: String(key) }, value })),
    });
    const perTopic = (name: string, help: string, value: (traffic: TopicTraffic) => number): MetricFamily => ({
      name,
      help,
      type: "counter",
      samples: [...this.topics].map(([topic, traffic]) => ({ labels: { topic }, value: value(traffic) })),
    });
    return [
      counter("nereus_kafka_connections_opened_total", "Kafka connections opened.", this.connectionsOpened),
      gauge("nereus_kafka_connections_active", "Kafka connections open now.", this.connectionsActive),
      counter(
        "nereus_kafka_connections_failed_total",
        "Connections closed because of an undecodable or unsupported request.",
        this.closedConnections,
      ),
      counter(
        "nereus_kafka_authentications_succeeded_total",
        "SASL authentications (and re-authentications) that succeeded.",
        this.authenticationSuccesses,
      ),
      counter(
        "nereus_kafka_authentications_failed_total",
        "SASL authentications refused (wrong credentials, unknown user, disabled mechanism).",
        this.authenticationFailures,
      ),
      labelled("nereus_kafka_requests_total", "Kafka requests handled, by API.", "api", this.requests),
      labelled(
        "nereus_kafka_request_failures_total",
        "Requests answered with a generic error because their handler failed, by API.",
        "api",
        this.requestErrors,
      ),
      labelled(
        "nereus_kafka_authorization_denials_total",
        "Authorization checks an ACL denied (a request may count several, one per resource), by API.",
        "api",
        this.authorizationDenials,
      ),
      counter("nereus_kafka_produced_batches_total", "Record batches appended.", this.producedBatches),
      counter("nereus_kafka_produced_records_total", "Records appended.", this.producedRecords),
      counter("nereus_kafka_produced_bytes_total", "Bytes of record batches appended.", this.producedBytes),
      counter(
        "nereus_kafka_duplicate_batches_total",
        "Retried idempotent batches answered with their original offset.",
        this.duplicateBatches,
      ),
      labelled(
        "nereus_kafka_produce_partition_errors_total",
        "Produce partition results with an error, by Kafka error code.",
        "error_code",
        this.produceErrors,
      ),
      counter("nereus_kafka_fetched_bytes_total", "Record bytes returned by Fetch.", this.fetchedBytes),
      perTopic("nereus_kafka_topic_produced_records_total", "Records appended, by topic.", (t) => t.producedRecords),
      perTopic(
        "nereus_kafka_topic_produced_bytes_total",
        "Bytes of record batches appended, by topic.",
        (t) => t.producedBytes,
      ),
      perTopic(
        "nereus_kafka_topic_fetched_records_total",
        "Records in the batches returned by Fetch, by topic.",
        (t) => t.fetchedRecords,
      ),
      perTopic(
        "nereus_kafka_topic_fetched_bytes_total",
        "Record bytes returned by Fetch, by topic.",
        (t) => t.fetchedBytes,
      ),
      counter("nereus_kafka_fetch_waits_total", "Fetches that long-polled for data.", this.fetchWaits),
      counter(
        "nereus_kafka_fetch_tail_hits_total",
        "Fetch partition reads served from the partition's tail cache (its newest committed batches).",
        this.fetchTailHits,
      ),
      counter(
        "nereus_kafka_fetch_read_ahead_hits_total",
        "Fetch partition reads served from the partition's read-ahead buffer.",
        this.fetchReadAheadHits,
      ),
      counter(
        "nereus_kafka_fetch_storage_reads_total",
        "Fetch partition reads served by the storage core.",
        this.fetchStorageReads,
      ),
      gauge(
        "nereus_kafka_read_ahead_bytes",
        "Bytes held by the read-ahead buffers of all partitions.",
        this.#gauges.readAheadBytes(),
      ),
      gauge(
        "nereus_kafka_tail_cache_bytes",
        "Bytes held by the tail caches of all partitions.",
        this.#gauges.tailCacheBytes(),
      ),
      counter("nereus_kafka_partition_fences_total", "Partitions fenced by an uncertain append.", this.partitionFences),
      counter(
        "nereus_kafka_partition_loads_total",
        "Partition loads (head read and producer-state replay).",
        this.partitionLoads,
      ),
      counter(
        "nereus_kafka_replayed_batches_total",
        "Batches replayed while loading producer state.",
        this.replayedBatches,
      ),
      counter(
        "nereus_kafka_retention_sweeps_total",
        "Retention sweeps run (retention.ms and retention.bytes).",
        this.retentionSweeps,
      ),
      counter(
        "nereus_kafka_retention_deleted_records_total",
        "Offsets moved below the log start by retention.ms and retention.bytes.",
        this.retentionDeletedRecords,
      ),
      counter(
        "nereus_kafka_retention_failures_total",
        "Partitions whose retention failed in a sweep (tried again by the next).",
        this.retentionFailures,
      ),
      gauge("nereus_kafka_partitions_open", "Partition logs held in memory.", this.#gauges.partitions()),
      gauge("nereus_kafka_partitions_fenced", "Partitions fenced now.", this.#gauges.fenced()),
    ];
  }
}
