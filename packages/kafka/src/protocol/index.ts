// Public API of @nereus/kafka/protocol: the sans-IO Kafka wire codec (bytes in, plain objects out). Every export
// is named here. It is what a server or client over these bytes needs: frames, request and response codecs with
// typed bodies, the API table, error codes and RecordBatch v2. The wire primitives (ints, varints, strings,
// tagged fields) stay inside the package.

// Frames and headers.
export { FrameDecoder, DEFAULT_MAX_FRAME_BYTES, type FrameDecoderOptions } from "./frames/frame-decoder.js";
export type { RequestHeader } from "./headers/request-header.js";
export type { ResponseHeader } from "./headers/response-header.js";

// API table, request dispatch, response encoding, errors.
export { ApiKey } from "./api-key.js";
export {
  SUPPORTED_APIS,
  type SupportedApi,
  type SupportedApiKey,
  type RequestBody,
  type ResponseBody,
  findSupportedApi,
  isSupportedApiKey,
} from "./supported-apis.js";
export {
  decodeRequest,
  type DecodedRequest,
  type KafkaRequest,
  type UnsupportedVersionRequest,
  type UnknownApiRequest,
} from "./decode-request.js";
export { encodeResponse, type ResponseTarget } from "./encode-response.js";
export { encodeRequest, decodeResponse, type RequestTarget, type DecodedResponse } from "./encode-request.js";
export {
  advertisedApiVersions,
  apiVersionsResponseBody,
  encodeApiVersionsFallback,
  type MaxVersionCaps,
  type ApiVersionsResponseOptions,
} from "./advertised-api-versions.js";
export { KafkaErrorCode, KAFKA_ERRORS, kafkaError, type KafkaError } from "./error-codes.js";

// The schema layer every API codec is declared with (the body types are expressed in it, so declarations that
// name a body reference it).
export { MessageSchema, message, type MessageDefinition, type MessageValue } from "./schema/message-schema.js";
export {
  StructSchema,
  struct,
  type FieldShape,
  type StructValue,
  type UnknownTaggedFields,
} from "./schema/struct-schema.js";
export {
  field,
  nullableField,
  type FieldSpec,
  type FieldOptions,
  type NullableFieldOptions,
  type FieldValue,
} from "./schema/field-spec.js";
export { arrayOf, type ArrayType } from "./schema/array-type.js";
export {
  int8,
  int16,
  uint16,
  int32,
  uint32,
  int64,
  int64BigInt,
  float64,
  bool,
  uuid,
  string,
  bytes,
  records,
  recordParts,
} from "./schema/scalar-types.js";
export type { WireType, NullableWireType, WireValue, CodecContext } from "./schema/wire-type.js";
export { type VersionRange, parseVersionRange, inVersionRange, formatVersionRange } from "./schema/version-range.js";
export { describeSchema } from "./schema/describe-schema.js";

// The API codecs: one message schema per request and response, named like the body type it decodes to.
export { ApiVersionsRequest } from "./apis/api-versions/api-versions-request.js";
export { ApiVersionsResponse, type ApiVersionsResponseApiKey } from "./apis/api-versions/api-versions-response.js";
export { MetadataRequest, type MetadataRequestTopic } from "./apis/metadata/metadata-request.js";
export {
  MetadataResponse,
  AUTHORIZED_OPERATIONS_OMITTED,
  type MetadataResponseBroker,
  type MetadataResponseTopic,
  type MetadataResponsePartition,
} from "./apis/metadata/metadata-response.js";
export {
  ProduceRequest,
  type ProduceRequestTopic,
  type ProduceRequestPartition,
} from "./apis/produce/produce-request.js";
export {
  ProduceResponse,
  type ProduceResponseTopic,
  type ProduceResponsePartition,
} from "./apis/produce/produce-response.js";
export {
  FetchRequest,
  IsolationLevel,
  type FetchRequestTopic,
  type FetchRequestPartition,
} from "./apis/fetch/fetch-request.js";
export { FetchResponse, type FetchResponseTopic, type FetchResponsePartition } from "./apis/fetch/fetch-response.js";
export {
  ListOffsetsRequest,
  ListOffsetsTimestamp,
  type ListOffsetsRequestTopic,
  type ListOffsetsRequestPartition,
} from "./apis/list-offsets/list-offsets-request.js";
export {
  ListOffsetsResponse,
  type ListOffsetsResponseTopic,
  type ListOffsetsResponsePartition,
} from "./apis/list-offsets/list-offsets-response.js";
export { FindCoordinatorRequest, CoordinatorKeyType } from "./apis/find-coordinator/find-coordinator-request.js";
export {
  FindCoordinatorResponse,
  type FindCoordinatorResponseCoordinator,
} from "./apis/find-coordinator/find-coordinator-response.js";
export { JoinGroupRequest, type JoinGroupRequestProtocol } from "./apis/join-group/join-group-request.js";
export { JoinGroupResponse, type JoinGroupResponseMember } from "./apis/join-group/join-group-response.js";
export { SyncGroupRequest, type SyncGroupRequestAssignment } from "./apis/sync-group/sync-group-request.js";
export { SyncGroupResponse } from "./apis/sync-group/sync-group-response.js";
export { HeartbeatRequest } from "./apis/heartbeat/heartbeat-request.js";
export { HeartbeatResponse } from "./apis/heartbeat/heartbeat-response.js";
export { LeaveGroupRequest, type LeaveGroupRequestMember } from "./apis/leave-group/leave-group-request.js";
export { LeaveGroupResponse, type LeaveGroupResponseMember } from "./apis/leave-group/leave-group-response.js";
export {
  OffsetCommitRequest,
  type OffsetCommitRequestTopic,
  type OffsetCommitRequestPartition,
} from "./apis/offset-commit/offset-commit-request.js";
export {
  OffsetCommitResponse,
  type OffsetCommitResponseTopic,
  type OffsetCommitResponsePartition,
} from "./apis/offset-commit/offset-commit-response.js";
export {
  OffsetFetchRequest,
  type OffsetFetchRequestTopic,
  type OffsetFetchRequestGroup,
  type OffsetFetchRequestGroupTopic,
} from "./apis/offset-fetch/offset-fetch-request.js";
export {
  OffsetFetchResponse,
  type OffsetFetchResponseTopic,
  type OffsetFetchResponsePartition,
  type OffsetFetchResponseGroup,
} from "./apis/offset-fetch/offset-fetch-response.js";
export { DescribeGroupsRequest } from "./apis/describe-groups/describe-groups-request.js";
export {
  DescribeGroupsResponse,
  type DescribedGroup,
  type DescribedGroupMember,
} from "./apis/describe-groups/describe-groups-response.js";
export { ListGroupsRequest } from "./apis/list-groups/list-groups-request.js";
export { ListGroupsResponse, type ListedGroup } from "./apis/list-groups/list-groups-response.js";
export { InitProducerIdRequest } from "./apis/init-producer-id/init-producer-id-request.js";
export { InitProducerIdResponse } from "./apis/init-producer-id/init-producer-id-response.js";
export { CreateTopicsRequest, type CreateTopicsRequestTopic } from "./apis/create-topics/create-topics-request.js";
export { CreateTopicsResponse, type CreateTopicsResponseTopic } from "./apis/create-topics/create-topics-response.js";
export { DeleteTopicsRequest, type DeleteTopicsRequestTopic } from "./apis/delete-topics/delete-topics-request.js";
export { DeleteTopicsResponse, type DeleteTopicsResponseTopic } from "./apis/delete-topics/delete-topics-response.js";
export {
  DeleteRecordsRequest,
  type DeleteRecordsRequestPartition,
  type DeleteRecordsRequestTopic,
} from "./apis/delete-records/delete-records-request.js";
export {
  DeleteRecordsResponse,
  type DeleteRecordsResponsePartition,
  type DeleteRecordsResponseTopic,
} from "./apis/delete-records/delete-records-response.js";
export {
  DescribeLogDirsRequest,
  type DescribeLogDirsRequestTopic,
} from "./apis/describe-log-dirs/describe-log-dirs-request.js";
export {
  DescribeLogDirsResponse,
  type DescribeLogDirsResponsePartition,
  type DescribeLogDirsResponseTopic,
  type DescribeLogDirsResult,
} from "./apis/describe-log-dirs/describe-log-dirs-response.js";
export {
  DescribeConfigsRequest,
  ConfigResourceType,
  type DescribeConfigsRequestResource,
} from "./apis/describe-configs/describe-configs-request.js";
export {
  DescribeConfigsResponse,
  type DescribeConfigsResponseResult,
  type DescribeConfigsResponseConfig,
} from "./apis/describe-configs/describe-configs-response.js";
export { OffsetDeleteRequest, type OffsetDeleteRequestTopic } from "./apis/offset-delete/offset-delete-request.js";
export { OffsetDeleteResponse, type OffsetDeleteResponseTopic } from "./apis/offset-delete/offset-delete-response.js";
export { DeleteGroupsRequest } from "./apis/delete-groups/delete-groups-request.js";
export { DeleteGroupsResponse, type DeleteGroupsResponseResult } from "./apis/delete-groups/delete-groups-response.js";
export {
  CreatePartitionsRequest,
  type CreatePartitionsRequestTopic,
} from "./apis/create-partitions/create-partitions-request.js";
export {
  CreatePartitionsResponse,
  type CreatePartitionsResponseTopic,
} from "./apis/create-partitions/create-partitions-response.js";
export { AlterConfigsRequest, type AlterConfigsRequestResource } from "./apis/alter-configs/alter-configs-request.js";
export { AlterConfigsResponse, type AlterConfigsResourceResult } from "./apis/alter-configs/alter-configs-response.js";
export {
  ConfigOperation,
  IncrementalAlterConfigsRequest,
  type IncrementalAlterConfigsRequestResource,
} from "./apis/incremental-alter-configs/incremental-alter-configs-request.js";
export { IncrementalAlterConfigsResponse } from "./apis/incremental-alter-configs/incremental-alter-configs-response.js";

// RecordBatch v2.
export {
  readRecordBatchHeader,
  type RecordBatchHeader,
  RecordBatchOffset,
  RecordBatchAttribute,
  CompressionCodec,
  RECORD_BATCH_HEADER_BYTES,
  LOG_OVERHEAD_BYTES,
  CRC_COVERAGE_START,
  CURRENT_MAGIC,
} from "./records/record-batch-header.js";
export {
  validateRecordBatch,
  type RecordBatchValidation,
  type RecordBatchValidationOptions,
  type RecordBatchRejection,
} from "./records/validate-record-batch.js";
export {
  validateRecords,
  type RecordsValidation,
  type RecordsRejection,
  type ValidateRecordsOptions,
} from "./records/validate-records.js";
export { assignBaseOffset, type AssignBaseOffsetOptions } from "./records/assign-base-offset.js";
export { splitRecordBatches, type SplitRecordBatches } from "./records/split-record-batches.js";
export { readRecord, writeRecord, type KafkaRecord, type RecordHeader } from "./records/kafka-record.js";
export {
  decodeRecordBatch,
  type DecodedRecordBatch,
  type DecodedRecord,
  type DecodeRecordBatchOptions,
  type Decompressor,
} from "./records/decode-record-batch.js";
export {
  encodeRecordBatch,
  type RecordBatchInput,
  type RecordInput,
  type Compressor,
} from "./records/encode-record-batch.js";
