// The JSON each mode of java/NereusPulsarDriver.java prints as its last stdout line. Times are wall-clock
// milliseconds; MB are 10^6 bytes of message values.

/** `create-topic`: how many partitioned topics were created, each with the partition count the metadata answered. */
export interface CreateTopicResult {
  readonly topics: number;
  readonly partitions: number;
}

/** Throughput of a timed phase. */
interface Throughput {
  readonly messages: number;
  readonly bytes: number;
  readonly seconds: number;
  readonly mbPerSec: number;
  readonly msgPerSec: number;
  /** Topics the client wrote to or read from: the partitions, or 1 for a non-partitioned topic. */
  readonly partitions: number;
  /** CPU of the driver JVM over the timed phase. */
  readonly clientCpuMs: number;
}

/** Publish latencies: percentiles of the acknowledged messages. */
interface Latencies {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly p999Ms: number;
  readonly maxMs: number;
}

/** `produce`: the measured messages (the warm-up excluded); latency from the send call to its acknowledgement. */
export interface ProduceResult extends Throughput, Latencies {
  readonly size: number;
  readonly errors: number;
  readonly firstError: string | null;
}

/** `consume`: the measured topic read from the earliest position. */
export interface ConsumeResult extends Throughput {
  /** Distinct message indexes received (a message carries its index in its first 8 bytes). */
  readonly distinct: number;
  readonly duplicates: number;
  readonly timedOut: boolean;
}

/** `latency`: a fixed rate; latency from the moment a message was due to its acknowledgement. */
export interface LatencyResult extends Latencies {
  readonly partitions: number;
  readonly messages: number;
  readonly rate: number;
  readonly achievedRate: number;
  /** Sends that left more than 1 ms after they were due (the client blocked or the JVM stalled). */
  readonly lateSends: number;
  readonly errors: number;
  readonly firstError: string | null;
}
