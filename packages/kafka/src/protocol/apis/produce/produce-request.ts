// Produce request body (api key 0): per topic and partition one `records` blob (record batches; exactly one
// magic-2 batch per partition from v3). v0-2 exist only so that old librdkafka sees Produce v0 advertised and keeps
// compressing; the broker answers them with UNSUPPORTED_VERSION. `records` are views
// into the frame: copy before retaining.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, records, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const partitionProduceData = struct("PartitionProduceData", {
  index: field(int32),
  records: nullableField(records, { nullableVersions: "0+" }),
});

const topicProduceData = struct("TopicProduceData", {
  name: field(string),
  partitionData: field(arrayOf(partitionProduceData)),
});

/**
 * Grammar:
 *
 *   ProduceRequest (api key 0), v0-11, flexible v9+
 *     transactionalId: string (v3+, nullable v3+)
 *     acks: int16
 *     timeoutMs: int32
 *     topicData: []TopicProduceData
 *       name: string
 *       partitionData: []PartitionProduceData
 *         index: int32
 *         records: records (nullable v0+)
 */
export const ProduceRequest = message({
  name: "ProduceRequest",
  apiKey: 0,
  type: "request",
  validVersions: "0-11",
  flexibleVersions: "9+",
  fields: {
    transactionalId: nullableField(string, { versions: "3+", nullableVersions: "3+", default: null }),
    /** 0: no response at all; 1: leader ack; -1: all in-sync replicas. */
    acks: field(int16),
    timeoutMs: field(int32),
    topicData: field(arrayOf(topicProduceData)),
  },
});

/** A decoded Produce request body. */
export type ProduceRequest = MessageValue<typeof ProduceRequest>;
/** Records for one topic. */
export type ProduceRequestTopic = StructValue<typeof topicProduceData.fields>;
/** Records for one partition. */
export type ProduceRequestPartition = StructValue<typeof partitionProduceData.fields>;
