// Produce (0), v3+: per partition exactly one RecordBatch v2, validated as a Kafka broker does (magic, CRC-32C,
// lastOffsetDelta + 1 = recordCount, size ≤ max.message.bytes, base offset 0, no control batches, producer
// fields consistent, and every record walked — compressed batches inflated, bounded — before any offset is
// assigned), then handed to the partition log in arrival order (tickets are reserved before the first await). A
// refused batch fails only its own partition and nothing of it is stored. v0-2 are advertised only for old librdkafka's sake and answered UNSUPPORTED_VERSION. acks=0 gets no
// response (the batches are still appended, in order); acks=1 and acks=-1 both wait for the stable append.
import { NereusError } from "@nereus/core";
import type { ProduceResponsePartition } from "../../protocol/apis/produce/produce-response.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { CompressionCodec, type RecordBatchHeader } from "../../protocol/records/record-batch-header.js";
import { splitRecordBatches } from "../../protocol/records/split-record-batches.js";
import { type RecordBatchRejection, validateRecordBatch } from "../../protocol/records/validate-record-batch.js";
import { validateRecords } from "../../protocol/records/validate-records.js";
import type { ProduceOutcome, ProduceTicket } from "../../log/produce-ticket.js";
import type { KafkaTopic } from "../../topics/kafka-topic.js";
import { maxMessageBytes } from "../../topics/topic-configs.js";
import { createBatchDecompressor } from "../../compression/create-batch-decompressor.js";
import type { BrokerServices } from "../broker-services.js";
import { type KafkaApiHandler, NO_RESPONSE } from "../kafka-api-handler.js";
import { lookupAuthorizedTopic } from "../lookup-authorized-topic.js";
import { AclOperation } from "../../security/acl/acl-types.js";

/** The largest batch the storage core accepts as one entry. */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/** First Produce version carrying zstd. */
const ZSTD_MIN_VERSION = 7;

const REJECTION_CODES: Readonly<Record<RecordBatchRejection, number>> = {
  truncated: KafkaErrorCode.CORRUPT_MESSAGE,
  "length-mismatch": KafkaErrorCode.CORRUPT_MESSAGE,
  "unsupported-magic": KafkaErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT,
  "invalid-magic": KafkaErrorCode.CORRUPT_MESSAGE,
  "too-large": KafkaErrorCode.MESSAGE_TOO_LARGE,
  "crc-mismatch": KafkaErrorCode.CORRUPT_MESSAGE,
  "invalid-header": KafkaErrorCode.CORRUPT_MESSAGE,
  "record-count-mismatch": KafkaErrorCode.INVALID_RECORD,
  "invalid-base-offset": KafkaErrorCode.INVALID_RECORD,
  "control-batch": KafkaErrorCode.INVALID_RECORD,
  "invalid-producer-state": KafkaErrorCode.INVALID_RECORD,
  "decompression-failed": KafkaErrorCode.CORRUPT_MESSAGE,
  "invalid-records": KafkaErrorCode.INVALID_RECORD,
  "invalid-offset-delta": KafkaErrorCode.INVALID_RECORD,
};

/** The answer for a partition another broker leads. */
const NOT_HELD = "This broker does not lead this partition.";

/** Inflates compressed batches for validation, each bounded by the storage core's entry limit. */
const decompress = createBatchDecompressor({ maxInflatedBytes: MAX_ENTRY_BYTES });

type Checked =
  | { readonly ok: true; readonly batch: Uint8Array; readonly header: RecordBatchHeader }
  | { readonly ok: false; readonly outcome: ProduceOutcome };

function rejected(errorCode: number, message: string, recordIndex?: number): Checked {
  const recordErrors = recordIndex === undefined ? undefined : [{ batchIndex: recordIndex, message }];
  return {
    ok: false,
    outcome: { kind: "failed", errorCode, message, ...(recordErrors === undefined ? {} : { recordErrors }) },
  };
}

/** Validates one partition's records; never throws. */
function checkProducedRecords(records: Uint8Array | null, topic: KafkaTopic, apiVersion: number): Checked {
  if (records === null) return rejected(KafkaErrorCode.INVALID_RECORD, "Produce requests must carry a record batch");
  let batches: Uint8Array[];
  let trailingBytes: number;
  try {
    ({ batches, trailingBytes } = splitRecordBatches(records));
  } catch (error) {
    return rejected(KafkaErrorCode.CORRUPT_MESSAGE, NereusError.is(error) ? error.message : String(error));
  }
  if (trailingBytes !== 0)
    return rejected(KafkaErrorCode.CORRUPT_MESSAGE, `${String(trailingBytes)} bytes do not form a whole record batch`);
  const batch = batches[0];
  if (batch === undefined || batches.length !== 1) {
    return rejected(
      KafkaErrorCode.INVALID_RECORD,
      "Produce requests with version 3+ must have exactly one record batch per partition",
    );
  }
  const validation = validateRecordBatch(batch, {
    producer: true,
    maxBatchBytes: Math.min(maxMessageBytes(topic.configs), MAX_ENTRY_BYTES),
  });
  if (!validation.ok) return rejected(REJECTION_CODES[validation.reason], validation.message);
  const { header } = validation;
  if (header.compression > CompressionCodec.zstd)
    return rejected(KafkaErrorCode.CORRUPT_MESSAGE, `unknown compression codec ${String(header.compression)}`);
  if (header.compression === CompressionCodec.zstd && apiVersion < ZSTD_MIN_VERSION) {
    return rejected(KafkaErrorCode.UNSUPPORTED_COMPRESSION_TYPE, "zstd batches need Produce v7 or later");
  }
  if (header.isTransactional)
    return rejected(KafkaErrorCode.INVALID_TXN_STATE, "transactions are not supported by this broker");
  if (header.producerId >= 0n && header.producerEpoch < 0)
    return rejected(KafkaErrorCode.INVALID_RECORD, "a producer id needs a non-negative producer epoch");
  // Walk the records last: the cheap header checks above refuse what they can without inflating anything.
  const walked = validateRecords(batch, header, { decompress });
  if (!walked.ok) return rejected(REJECTION_CODES[walked.reason], walked.message, walked.recordIndex);
  return { ok: true, batch, header };
}

export function createProduceHandler(services: BrokerServices): KafkaApiHandler<0> {
  const { identity } = services;
  return {
    async handle(context, request) {
      const { body, apiVersion } = request;
      const refusal =
        apiVersion < 3
          ? {
              errorCode: KafkaErrorCode.UNSUPPORTED_VERSION,
              message: "message format v0/v1 (Produce v0-2) is not supported; use Produce v3+",
            }
          : body.acks !== 0 && body.acks !== 1 && body.acks !== -1
            ? { errorCode: KafkaErrorCode.INVALID_REQUIRED_ACKS, message: `invalid acks ${String(body.acks)}` }
            : body.transactionalId !== null
              ? {
                  errorCode: KafkaErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
                  message: "transactions are not supported by this broker",
                }
              : undefined;
      const accessing = services.authorizer.access(context);
      // Reserve every partition's place in its append order before the first await (arrival order).
      const tickets: Array<Array<ProduceTicket | undefined>> = body.topicData.map((topic) =>
        topic.partitionData.map((partition) =>
          refusal === undefined ? services.logs.reserve(topic.name, partition.index) : undefined,
        ),
      );
      const outcomes = await Promise.all(
        body.topicData.map(async (topicData, topicIndex) => {
          const topicTickets = tickets[topicIndex] ?? [];
          if (refusal !== undefined)
            return topicData.partitionData.map((): ProduceOutcome => ({ kind: "failed", ...refusal }));
          const access = await accessing;
          const resolved = await lookupAuthorizedTopic(
            services,
            access,
            AclOperation.WRITE,
            { name: topicData.name },
            context.signal,
          );
          if (resolved.kind === "failed") {
            for (const ticket of topicTickets) ticket?.cancel();
            return topicData.partitionData.map((): ProduceOutcome => ({
              kind: "failed",
              errorCode: resolved.errorCode,
              message: "topic lookup failed",
            }));
          }
          const topic = resolved.kind === "found" ? resolved.topic : undefined;
          return Promise.all(
            topicData.partitionData.map((partition, partitionIndex): Promise<ProduceOutcome> => {
              const ticket = topicTickets[partitionIndex];
              if (topic === undefined || partition.index < 0 || partition.index >= topic.partitionCount) {
                ticket?.cancel();
                return Promise.resolve({
                  kind: "failed",
                  errorCode: KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
                  message: "This server does not host this topic-partition.",
                });
              }
              const checked = checkProducedRecords(partition.records, topic, apiVersion);
              if (!checked.ok || ticket === undefined) {
                ticket?.cancel();
                return Promise.resolve(
                  checked.ok
                    ? { kind: "failed", errorCode: KafkaErrorCode.UNKNOWN_SERVER_ERROR, message: "no ticket" }
                    : checked.outcome,
                );
              }
              const submit = (): Promise<ProduceOutcome> =>
                ticket.submit({ topic, batch: checked.batch, header: checked.header, timeoutMs: body.timeoutMs });
              if (services.ownership === undefined) return submit();
              return services.ownership.claimPartition(topic.topicId, partition.index).then((held) => {
                if (held) return submit();
                ticket.cancel();
                return { kind: "failed", errorCode: KafkaErrorCode.NOT_LEADER_OR_FOLLOWER, message: NOT_HELD };
              });
            }),
          );
        }),
      );
      let throttleTimeMs = 0;
      let notLeader = false;
      const responses = body.topicData.map((topicData, topicIndex) => ({
        name: topicData.name,
        partitionResponses: topicData.partitionData.map((partition, partitionIndex): ProduceResponsePartition => {
          const outcome = outcomes[topicIndex]?.[partitionIndex] ?? {
            kind: "failed",
            errorCode: KafkaErrorCode.UNKNOWN_SERVER_ERROR,
            message: "missing outcome",
          };
          if (outcome.kind === "appended") {
            return {
              index: partition.index,
              errorCode: KafkaErrorCode.NONE,
              baseOffset: outcome.baseOffset,
              logAppendTimeMs: outcome.logAppendTimeMs,
              logStartOffset: outcome.logStartOffset,
              recordErrors: [],
              errorMessage: null,
              currentLeader: { leaderId: -1, leaderEpoch: -1 },
            };
          }
          services.metrics.produceError(outcome.errorCode);
          throttleTimeMs = Math.max(throttleTimeMs, outcome.throttleTimeMs ?? 0);
          const isNotLeader = outcome.errorCode === KafkaErrorCode.NOT_LEADER_OR_FOLLOWER;
          notLeader ||= isNotLeader;
          return {
            index: partition.index,
            errorCode: outcome.errorCode,
            baseOffset: -1,
            logAppendTimeMs: -1,
            logStartOffset: outcome.logStartOffset ?? -1,
            recordErrors: (outcome.recordErrors ?? []).map((error) => ({
              batchIndex: error.batchIndex,
              batchIndexErrorMessage: error.message,
            })),
            errorMessage: outcome.message,
            currentLeader:
              isNotLeader && services.ownership === undefined
                ? { leaderId: identity.nodeId, leaderEpoch: 0 }
                : { leaderId: -1, leaderEpoch: -1 },
          };
        }),
      }));
      if (body.acks === 0) return NO_RESPONSE;
      return {
        responses,
        throttleTimeMs,
        nodeEndpoints:
          notLeader && services.ownership === undefined
            ? [{ nodeId: identity.nodeId, host: identity.host, port: identity.port, rack: null }]
            : [],
      };
    },
  };
}
