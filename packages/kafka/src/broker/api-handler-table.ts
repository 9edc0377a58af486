// The broker's API table: the built-in handlers over the broker services plus the group handlers it is given, and
// what ApiVersions advertises — each API's highest version (below the codec's maximum and the caps), and -1 for an
// API without a handler. A group handler may not replace a built-in one.
import { ApiKey } from "../protocol/api-key.js";
import type { MaxVersionCaps } from "../protocol/advertised-api-versions.js";
import { SUPPORTED_APIS, type SupportedApiKey } from "../protocol/supported-apis.js";
import type { BrokerServices } from "./broker-services.js";
import { invalid } from "./check-broker-options.js";
import { createAlterConfigsHandler, createIncrementalAlterConfigsHandler } from "./handlers/alter-configs-handler.js";
import { createApiVersionsHandler } from "./handlers/api-versions-handler.js";
import { createCreateAclsHandler } from "./handlers/create-acls-handler.js";
import { createDeleteAclsHandler } from "./handlers/delete-acls-handler.js";
import { createDescribeAclsHandler } from "./handlers/describe-acls-handler.js";
import { createCreatePartitionsHandler } from "./handlers/create-partitions-handler.js";
import { createCreateTopicsHandler } from "./handlers/create-topics-handler.js";
import { createDeleteRecordsHandler } from "./handlers/delete-records-handler.js";
import { createDeleteTopicsHandler } from "./handlers/delete-topics-handler.js";
import { createDescribeConfigsHandler } from "./handlers/describe-configs-handler.js";
import { createDescribeLogDirsHandler } from "./handlers/describe-log-dirs-handler.js";
import { createFetchHandler } from "./handlers/fetch-handler.js";
import { createInitProducerIdHandler } from "./handlers/init-producer-id-handler.js";
import { createListOffsetsHandler } from "./handlers/list-offsets-handler.js";
import { createMetadataHandler } from "./handlers/metadata-handler.js";
import { createProduceHandler } from "./handlers/produce-handler.js";
import type { ApiKeyName, KafkaApiHandler, KafkaApiHandlers } from "./kafka-api-handler.js";

const BUILT_IN_APIS: readonly SupportedApiKey[] = [
  ApiKey.ApiVersions,
  ApiKey.Metadata,
  ApiKey.Produce,
  ApiKey.Fetch,
  ApiKey.ListOffsets,
  ApiKey.InitProducerId,
  ApiKey.CreateTopics,
  ApiKey.DeleteTopics,
  ApiKey.DeleteRecords,
  ApiKey.DescribeConfigs,
  ApiKey.AlterConfigs,
  ApiKey.CreatePartitions,
  ApiKey.IncrementalAlterConfigs,
  ApiKey.DescribeLogDirs,
  ApiKey.CreateAcls,
  ApiKey.DescribeAcls,
  ApiKey.DeleteAcls,
];

/** The handlers by API key, the highest version served per API, and the caps ApiVersions applies. */
export interface ApiHandlerTable {
  readonly handlers: Map<number, KafkaApiHandler>;
  readonly maxVersions: Map<number, number>;
  readonly caps: Record<number, number | undefined>;
}

/** Builds the table; throws INVALID_ARGUMENT for an unknown group API or one the broker answers itself. */
export function buildApiHandlerTable(
  services: BrokerServices,
  groupHandlers: KafkaApiHandlers,
  advertisedCaps: MaxVersionCaps,
): ApiHandlerTable {
  const handlers = new Map<number, KafkaApiHandler>();
  for (const [name, handler] of Object.entries(groupHandlers) as Array<[ApiKeyName, KafkaApiHandler | undefined]>) {
    if (handler === undefined) continue;
    const apiKey = ApiKey[name] as SupportedApiKey | undefined;
    if (apiKey === undefined) throw invalid(`groupHandlers: unknown API ${name}`);
    if (BUILT_IN_APIS.includes(apiKey)) throw invalid(`groupHandlers: ${name} is answered by the broker itself`);
    handlers.set(apiKey, handler);
  }
  const caps: Record<number, number | undefined> = { ...advertisedCaps };
  const maxVersions = new Map<number, number>();
  for (const api of Object.values(SUPPORTED_APIS)) {
    const present = BUILT_IN_APIS.includes(api.apiKey as SupportedApiKey) || handlers.has(api.apiKey);
    if (!present) caps[api.apiKey] = -1;
    else maxVersions.set(api.apiKey, Math.min(api.maxVersion, caps[api.apiKey] ?? api.maxVersion));
  }
  const built: Array<[SupportedApiKey, object]> = [
    [ApiKey.ApiVersions, createApiVersionsHandler(caps)],
    [ApiKey.Metadata, createMetadataHandler(services)],
    [ApiKey.Produce, createProduceHandler(services)],
    [ApiKey.Fetch, createFetchHandler(services)],
    [ApiKey.ListOffsets, createListOffsetsHandler(services)],
    [ApiKey.InitProducerId, createInitProducerIdHandler(services)],
    [ApiKey.CreateTopics, createCreateTopicsHandler(services)],
    [ApiKey.DeleteTopics, createDeleteTopicsHandler(services)],
    [ApiKey.DeleteRecords, createDeleteRecordsHandler(services)],
    [ApiKey.DescribeConfigs, createDescribeConfigsHandler(services)],
    [ApiKey.AlterConfigs, createAlterConfigsHandler(services)],
    [ApiKey.CreatePartitions, createCreatePartitionsHandler(services)],
    [ApiKey.IncrementalAlterConfigs, createIncrementalAlterConfigsHandler(services)],
    [ApiKey.DescribeLogDirs, createDescribeLogDirsHandler(services)],
    [ApiKey.CreateAcls, createCreateAclsHandler(services)],
    [ApiKey.DescribeAcls, createDescribeAclsHandler(services)],
    [ApiKey.DeleteAcls, createDeleteAclsHandler(services)],
  ];
  for (const [apiKey, handler] of built) handlers.set(apiKey, handler as unknown as KafkaApiHandler);
  return { handlers, maxVersions, caps };
}
