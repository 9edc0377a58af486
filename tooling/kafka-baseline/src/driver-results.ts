// Shapes of the JSON summaries the Java driver prints, one per mode (java/NereusKafkaDriver.java).

export interface CreateTopicResult {
  readonly topic: string;
  readonly partitions: number;
  /** False when the topic existed already. */
  readonly created: boolean;
}

export interface ProduceResult {
  readonly topic: string;
  readonly from: number;
  readonly count: number;
  readonly acked: number;
  readonly errors: number;
  readonly firstError?: string;
  /** Offsets acknowledged per partition. */
  readonly partitions: Readonly<
    Record<string, { readonly first: number; readonly last: number; readonly count: number }>
  >;
  readonly seconds: number;
}

/** Committed offset and log end offset per partition. */
export type CommittedOffsets = Readonly<Record<string, { readonly committed: number; readonly end: number }>>;

export interface ConsumeGroupResult {
  readonly group: string;
  readonly expected: number;
  /** Distinct expected records seen, each verified (key, value, headers). */
  readonly distinct: number;
  readonly missing: number;
  readonly firstMissing: number;
  /** Expected records delivered more than once. */
  readonly duplicates: number;
  /** Valid test records outside the expected index range (e.g. redelivered from before a commit). */
  readonly unexpected: number;
  /** Records whose key, value or headers were not exactly what was sent. */
  readonly bad: number;
  /** Every member held partitions before consumption started. */
  readonly shared: boolean;
  readonly timedOut: boolean;
  readonly seconds: number;
  readonly members: Readonly<
    Record<string, { readonly consumed: number; readonly rebalances: number; readonly error?: string }>
  >;
  readonly assignments: string;
  /** Offsets read per partition: range, count, repeated offsets and holes. */
  readonly partitions: Readonly<
    Record<
      string,
      {
        readonly first: number;
        readonly last: number;
        readonly records: number;
        readonly duplicateOffsets: number;
        readonly offsetHoles: number;
      }
    >
  >;
  readonly committed: CommittedOffsets;
  readonly error?: string;
}

export interface CommittedResult {
  readonly group: string;
  readonly committed: CommittedOffsets;
}

/** `delete-records`: the low watermark Admin deleteRecords answered, then the earliest and latest offsets. */
export interface DeleteRecordsResult {
  readonly topic: string;
  readonly partition: number;
  readonly lowWatermark: number;
  readonly earliest: number;
  readonly latest: number;
}

/** `log-dirs`: what Admin describeLogDirs and describeReplicaLogDirs answered, per broker. */
export interface LogDirsResult {
  readonly topic: string;
  readonly brokers: ReadonlyArray<{
    readonly logDirs: number;
    /** The first log directory's error: an exception class, or "none". */
    readonly error: string;
    /** The topic's partitions in it: partition index => size in bytes. */
    readonly sizes: Readonly<Record<string, number>>;
    readonly offsetLagsZero: boolean;
    readonly noFutureLogs: boolean;
    /** Total and usable bytes of the volume both reported. */
    readonly capacityReported: boolean;
    readonly usableWithinTotal: boolean;
    /** describeReplicaLogDirs named that directory for every partition of the topic. */
    readonly replicaLogDirsMatch: boolean;
  }>;
}

/** `alter-configs`: a topic's explicitly set configs after each incrementalAlterConfigs step. */
export interface AlterConfigsResult {
  readonly set: Readonly<Record<string, string>>;
  readonly appendDelete: Readonly<Record<string, string>>;
  /** The exception class the client raised for a non-number retention.ms ("none" when it was accepted). */
  readonly refused: string;
  readonly afterRefusal: Readonly<Record<string, string>>;
  readonly afterValidateOnly: Readonly<Record<string, string>>;
}

/** `partitions-and-groups`: CreatePartitions, OffsetDelete and DeleteGroups outcomes ("none" or the exception class). */
export interface PartitionsAndGroupsResult {
  readonly lowerCount: string;
  readonly partitions: number;
  readonly whileMember: string;
  /** deleteConsumerGroupOffsets of the topic the member subscribed to, and of another topic. */
  readonly offsetsOfSubscribed: string;
  readonly offsetsOfOther: string;
  /** The committed partitions left ("topic-0", "other-0"), sorted and comma-separated. */
  readonly committedAfter: string;
  readonly afterClose: string;
  readonly listedAfterDelete: boolean;
  readonly again: string;
}

export interface InteropResult {
  readonly topic: CreateTopicResult;
  readonly produce: ProduceResult;
  readonly consume: ConsumeGroupResult;
}

export interface ProducePerfResult {
  readonly topic: string;
  readonly records: number;
  readonly size: number;
  /** Target records/s (0 = as fast as the producer goes). */
  readonly rate: number;
  readonly seconds: number;
  readonly mbPerSec: number;
  readonly recordsPerSec: number;
  /** Per-record latency from send() to the acks=all callback. */
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
  readonly maxMs: number;
  readonly errors: number;
  /** The driver JVM's CPU time over the measured phase (warm-up excluded), -1 where the JVM does not tell. */
  readonly clientCpuMs: number;
  /** The driver JVM's JIT compilation time over the measured phase, -1 where the JVM does not tell. */
  readonly clientJitMs: number;
  /**
   * The producer's own means at the end of the run (group producer-metrics, over its last 30-60 s of samples, so
   * the end of the warm-up too; -1 when it has none): a Produce request's round trip as the client sees it (send to
   * response), records per request and batch bytes. Little's law: `recordsPerSec / recordsPerRequestAvg *
   * requestLatencyAvgMs / 1000` is the mean number of requests in flight (at most
   * max.in.flight.requests.per.connection on the one connection).
   */
  readonly requestLatencyAvgMs: number;
  /**
   * The mean of the producer's `requests-in-flight` gauge, sampled every 2 ms over the measured send loop alone
   * (first send to the end of the flush), or -1 when the client has no such gauge. Preferred over the Little's-law
   * figure above, whose round trip is a window that reaches back into the warm-up.
   */
  readonly requestsInFlightMean: number;
  readonly recordsPerRequestAvg: number;
  readonly batchSizeAvg: number;
  readonly firstError?: string;
}

export interface ConsumePerfResult {
  readonly topic: string;
  readonly records: number;
  readonly expected: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly mbPerSec: number;
  readonly recordsPerSec: number;
  readonly timedOut: boolean;
  /** The driver JVM's CPU time over the measured read (warm-up read excluded), -1 where the JVM does not tell. */
  readonly clientCpuMs: number;
  /** The driver JVM's JIT compilation time over the measured read, -1 where the JVM does not tell. */
  readonly clientJitMs: number;
}
