// The one table of APIs this broker speaks: per API key its name, the version range advertised in ApiVersions,
// the first flexible version, and the request/response codecs. ApiVersions responses, request decoding and
// response encoding are all driven from here, so only what has a codec is ever advertised. Ranges follow
// what the clients we test with negotiate (kafkajs 2.2.4, librdkafka 2.0.2, Java 3.x/4.x, @platformatic/kafka
// negotiate); see the notes per entry.
import { ApiVersionsRequest } from "./apis/api-versions/api-versions-request.js";
import { ApiVersionsResponse } from "./apis/api-versions/api-versions-response.js";
import { FetchRequest } from "./apis/fetch/fetch-request.js";
import { FetchResponse } from "./apis/fetch/fetch-response.js";
import { ListOffsetsRequest } from "./apis/list-offsets/list-offsets-request.js";
import { ListOffsetsResponse } from "./apis/list-offsets/list-offsets-response.js";
import { MetadataRequest } from "./apis/metadata/metadata-request.js";
import { MetadataResponse } from "./apis/metadata/metadata-response.js";
import { ProduceRequest } from "./apis/produce/produce-request.js";
import { ProduceResponse } from "./apis/produce/produce-response.js";
import { FindCoordinatorRequest } from "./apis/find-coordinator/find-coordinator-request.js";
import { FindCoordinatorResponse } from "./apis/find-coordinator/find-coordinator-response.js";
import { JoinGroupRequest } from "./apis/join-group/join-group-request.js";
import { JoinGroupResponse } from "./apis/join-group/join-group-response.js";
import { SyncGroupRequest } from "./apis/sync-group/sync-group-request.js";
import { SyncGroupResponse } from "./apis/sync-group/sync-group-response.js";
import { HeartbeatRequest } from "./apis/heartbeat/heartbeat-request.js";
import { HeartbeatResponse } from "./apis/heartbeat/heartbeat-response.js";
import { LeaveGroupRequest } from "./apis/leave-group/leave-group-request.js";
import { LeaveGroupResponse } from "./apis/leave-group/leave-group-response.js";
import { OffsetCommitRequest } from "./apis/offset-commit/offset-commit-request.js";
import { OffsetCommitResponse } from "./apis/offset-commit/offset-commit-response.js";
import { OffsetFetchRequest } from "./apis/offset-fetch/offset-fetch-request.js";
import { OffsetFetchResponse } from "./apis/offset-fetch/offset-fetch-response.js";
import { DescribeGroupsRequest } from "./apis/describe-groups/describe-groups-request.js";
import { DescribeGroupsResponse } from "./apis/describe-groups/describe-groups-response.js";
import { ListGroupsRequest } from "./apis/list-groups/list-groups-request.js";
import { ListGroupsResponse } from "./apis/list-groups/list-groups-response.js";
import { InitProducerIdRequest } from "./apis/init-producer-id/init-producer-id-request.js";
import { InitProducerIdResponse } from "./apis/init-producer-id/init-producer-id-response.js";
import { CreateTopicsRequest } from "./apis/create-topics/create-topics-request.js";
import { CreateTopicsResponse } from "./apis/create-topics/create-topics-response.js";
import { DeleteTopicsRequest } from "./apis/delete-topics/delete-topics-request.js";
import { DeleteTopicsResponse } from "./apis/delete-topics/delete-topics-response.js";
import { AlterConfigsRequest } from "./apis/alter-configs/alter-configs-request.js";
import { AlterConfigsResponse } from "./apis/alter-configs/alter-configs-response.js";
import { CreatePartitionsRequest } from "./apis/create-partitions/create-partitions-request.js";
import { CreatePartitionsResponse } from "./apis/create-partitions/create-partitions-response.js";
import { DeleteGroupsRequest } from "./apis/delete-groups/delete-groups-request.js";
import { OffsetDeleteRequest } from "./apis/offset-delete/offset-delete-request.js";
import { OffsetDeleteResponse } from "./apis/offset-delete/offset-delete-response.js";
import { DeleteGroupsResponse } from "./apis/delete-groups/delete-groups-response.js";
import { DeleteRecordsRequest } from "./apis/delete-records/delete-records-request.js";
import { DeleteRecordsResponse } from "./apis/delete-records/delete-records-response.js";
import { DescribeLogDirsRequest } from "./apis/describe-log-dirs/describe-log-dirs-request.js";
import { DescribeLogDirsResponse } from "./apis/describe-log-dirs/describe-log-dirs-response.js";
import { IncrementalAlterConfigsRequest } from "./apis/incremental-alter-configs/incremental-alter-configs-request.js";
import { IncrementalAlterConfigsResponse } from "./apis/incremental-alter-configs/incremental-alter-configs-response.js";
import { DescribeConfigsRequest } from "./apis/describe-configs/describe-configs-request.js";
import { DescribeConfigsResponse } from "./apis/describe-configs/describe-configs-response.js";
import { CreateAclsRequest } from "./apis/create-acls/create-acls-request.js";
import { CreateAclsResponse } from "./apis/create-acls/create-acls-response.js";
import { DescribeAclsRequest } from "./apis/describe-acls/describe-acls-request.js";
import { DescribeAclsResponse } from "./apis/describe-acls/describe-acls-response.js";
import { DeleteAclsRequest } from "./apis/delete-acls/delete-acls-request.js";
import { DeleteAclsResponse } from "./apis/delete-acls/delete-acls-response.js";
import { SaslHandshakeRequest } from "./apis/sasl-handshake/sasl-handshake-request.js";
import { SaslHandshakeResponse } from "./apis/sasl-handshake/sasl-handshake-response.js";
import { SaslAuthenticateRequest } from "./apis/sasl-authenticate/sasl-authenticate-request.js";
import { SaslAuthenticateResponse } from "./apis/sasl-authenticate/sasl-authenticate-response.js";
import { DescribeUserScramCredentialsRequest } from "./apis/describe-user-scram-credentials/describe-user-scram-credentials-request.js";
import { DescribeUserScramCredentialsResponse } from "./apis/describe-user-scram-credentials/describe-user-scram-credentials-response.js";
import { AlterUserScramCredentialsRequest } from "./apis/alter-user-scram-credentials/alter-user-scram-credentials-request.js";
import { AlterUserScramCredentialsResponse } from "./apis/alter-user-scram-credentials/alter-user-scram-credentials-response.js";
import type { MessageSchema, MessageValue } from "./schema/message-schema.js";
import type { FieldShape } from "./schema/struct-schema.js";

/** One supported API: advertised range and codecs. */
export interface SupportedApi<Request extends MessageSchema<FieldShape>, Response extends MessageSchema<FieldShape>> {
  readonly apiKey: number;
  readonly name: string;
  /** Lowest version advertised and decoded. */
  readonly minVersion: number;
  /** Highest version advertised and decoded. */
  readonly maxVersion: number;
  /** First flexible version (request header v2, response header v1 except ApiVersions). */
  readonly flexibleFrom: number;
  readonly request: Request;
  readonly response: Response;
}

function supported<Request extends MessageSchema<FieldShape>, Response extends MessageSchema<FieldShape>>(
  request: Request,
  response: Response,
  minVersion: number,
  maxVersion: number,
): SupportedApi<Request, Response> {
  return {
    apiKey: request.apiKey,
    name: request.name.replace(/Request$/, ""),
    minVersion,
    maxVersion,
    flexibleFrom: request.flexibleFrom,
    request,
    response,
  };
}

/** Every API with a codec, by API key. */
export const SUPPORTED_APIS = {
  // Java 4.x sends v4, librdkafka v3, kafkajs v2; an unknown version gets a v0 UNSUPPORTED_VERSION answer.
  18: supported(ApiVersionsRequest, ApiVersionsResponse, 0, 4),
  // v0 (empty topic list = all) through v12 (topic ids); librdkafka 2.0.2 ≤4, kafkajs ≤6.
  3: supported(MetadataRequest, MetadataResponse, 0, 12),
  // Advertised from v0 although v0-2 (message format 0/1) are answered with UNSUPPORTED_VERSION: librdkafka before
  // 2.11.1 only compresses when Produce v0 is advertised (protocols.md P1). kafkajs and librdkafka 2.0.2 send v7.
  0: supported(ProduceRequest, ProduceResponse, 0, 11),
  // v0-3 read message format 0/1 only; librdkafka writes record batches only once Fetch ≥4 is advertised.
  // v13+ address topics by id (Metadata v10+ reports them); @platformatic/kafka always fetches by id, Java ≤17.
  1: supported(FetchRequest, FetchResponse, 4, 17),
  // v0 (old-style offset lists) is dropped as in Kafka 4.0; kafkajs ≤3, librdkafka 2.0.2 ≤2, Java 4.x ≤10.
  2: supported(ListOffsetsRequest, ListOffsetsResponse, 1, 10),
  // Java 4.x batches keys from v4 (KIP-699); v5 (TRANSACTION_ABORTABLE) and v6 (share groups) are not advertised.
  10: supported(FindCoordinatorRequest, FindCoordinatorResponse, 0, 4),
  // kafkajs and librdkafka ≤5 (v4+ MEMBER_ID_REQUIRED dance), Java ≤9.
  11: supported(JoinGroupRequest, JoinGroupResponse, 0, 9),
  14: supported(SyncGroupRequest, SyncGroupResponse, 0, 5),
  12: supported(HeartbeatRequest, HeartbeatResponse, 0, 4),
  // v3+ leaves a batch of members.
  13: supported(LeaveGroupRequest, LeaveGroupResponse, 0, 5),
  // v0-1 dropped as in Kafka 4.0; kafkajs ≤5, librdkafka 2.0.2 ≤7, Java ≤9 (v9: KIP-848 member epoch).
  8: supported(OffsetCommitRequest, OffsetCommitResponse, 2, 9),
  // v0 (ZooKeeper offsets) dropped; v8+ is the multi-group shape.
  9: supported(OffsetFetchRequest, OffsetFetchResponse, 1, 9),
  15: supported(DescribeGroupsRequest, DescribeGroupsResponse, 0, 5),
  16: supported(ListGroupsRequest, ListGroupsResponse, 0, 5),
  // kafkajs ≤1, librdkafka 2.0.2 ≤4 (flexible), Java ≤5; mandatory for Java producers (idempotence on by default).
  22: supported(InitProducerIdRequest, InitProducerIdResponse, 0, 5),
  // Admin; kafkajs ≤3, librdkafka ≤4, Java ≤7 (v7 returns topic ids). v0-1 dropped as in Kafka 4.0.
  19: supported(CreateTopicsRequest, CreateTopicsResponse, 2, 7),
  // Admin; v6 deletes by topic id.
  20: supported(DeleteTopicsRequest, DeleteTopicsResponse, 1, 6),
  // Admin (kafka-delete-records, AdminClient.deleteRecords, kafkajs deleteTopicRecords); v2 is flexible.
  21: supported(DeleteRecordsRequest, DeleteRecordsResponse, 0, 2),
  // Admin; v0 (isDefault instead of configSource) dropped as in Kafka 4.0.
  32: supported(DescribeConfigsRequest, DescribeConfigsResponse, 1, 4),
  // Admin (kafka-log-dirs --describe, Admin.describeLogDirs / describeReplicaLogDirs); v0 dropped as in Kafka 4.0,
  // v2 is flexible, v3 adds the top-level error code, v4 the volume's total and usable bytes.
  35: supported(DescribeLogDirsRequest, DescribeLogDirsResponse, 1, 4),
  // Admin (kafka-topics --alter --partitions, Admin.createPartitions, kafkajs createPartitions); v2 is flexible.
  37: supported(CreatePartitionsRequest, CreatePartitionsResponse, 0, 3),
  // Admin (kafkajs alterConfigs ≤1; replaces a resource's whole config set); v2 is flexible.
  33: supported(AlterConfigsRequest, AlterConfigsResponse, 0, 2),
  // Groups admin (kafka-consumer-groups --delete, Admin.deleteConsumerGroups, kafkajs deleteGroups); v2 is flexible.
  42: supported(DeleteGroupsRequest, DeleteGroupsResponse, 0, 2),
  // Groups admin (kafka-consumer-groups --delete-offsets, Admin.deleteConsumerGroupOffsets); one version.
  47: supported(OffsetDeleteRequest, OffsetDeleteResponse, 0, 0),
  // Admin (Java Admin.incrementalAlterConfigs, kafka-configs --alter, librdkafka); v1 is flexible.
  44: supported(IncrementalAlterConfigsRequest, IncrementalAlterConfigsResponse, 0, 1),
  // ACL admin (kafka-acls, Admin.createAcls/describeAcls/deleteAcls); v0 dropped as in Kafka 4.0, v2 is flexible,
  // v3 admits the USER resource type. Java 3.x/4.x send v3.
  30: supported(CreateAclsRequest, CreateAclsResponse, 1, 3),
  29: supported(DescribeAclsRequest, DescribeAclsResponse, 1, 3),
  31: supported(DeleteAclsRequest, DeleteAclsResponse, 1, 3),
  // SASL (security/sasl/): after a v0 handshake the tokens travel raw (librdkafka only uses SASL once v0 is
  // advertised, then sends v1 like Java). SaslAuthenticate v1 adds the session lifetime, v2 is flexible.
  17: supported(SaslHandshakeRequest, SaslHandshakeResponse, 0, 1),
  36: supported(SaslAuthenticateRequest, SaslAuthenticateResponse, 0, 2),
  // SCRAM credential admin (kafka-configs --alter --add-config 'SCRAM-SHA-512=[...]', Admin.alterUserScramCredentials).
  50: supported(DescribeUserScramCredentialsRequest, DescribeUserScramCredentialsResponse, 0, 0),
  51: supported(AlterUserScramCredentialsRequest, AlterUserScramCredentialsResponse, 0, 0),
} as const;

/** The API keys in {@link SUPPORTED_APIS}. */
export type SupportedApiKey = keyof typeof SUPPORTED_APIS;
/** The decoded request body of API `K`. */
export type RequestBody<K extends SupportedApiKey> = MessageValue<(typeof SUPPORTED_APIS)[K]["request"]>;
/** The response body of API `K`. */
export type ResponseBody<K extends SupportedApiKey> = MessageValue<(typeof SUPPORTED_APIS)[K]["response"]>;

/** The table entry for `apiKey`, or undefined when the API has no codec here. */
export function findSupportedApi(
  apiKey: number,
): SupportedApi<MessageSchema<FieldShape>, MessageSchema<FieldShape>> | undefined {
  return Object.hasOwn(SUPPORTED_APIS, apiKey) ? SUPPORTED_APIS[apiKey as SupportedApiKey] : undefined;
}

/** True when `apiKey` is in the table. */
export function isSupportedApiKey(apiKey: number): apiKey is SupportedApiKey {
  return Object.hasOwn(SUPPORTED_APIS, apiKey);
}
