// ApiVersions answers built from SUPPORTED_APIS: the advertised ranges, and the v0 UNSUPPORTED_VERSION body a
// broker sends when a client asks for an ApiVersions version it does not know (the client then retries with the
// highest ApiVersions version listed).
import type { ApiVersionsResponse, ApiVersionsResponseApiKey } from "./apis/api-versions/api-versions-response.js";
import { encodeResponse } from "./encode-response.js";
import { KafkaErrorCode } from "./error-codes.js";
import { SUPPORTED_APIS } from "./supported-apis.js";

/** One entry per supported API, ascending by API key. */
export function advertisedApiVersions(): ApiVersionsResponseApiKey[] {
  return Object.values(SUPPORTED_APIS)
    .map((api) => ({ apiKey: api.apiKey, minVersion: api.minVersion, maxVersion: api.maxVersion }))
    .sort((left, right) => left.apiKey - right.apiKey);
}

/** A complete ApiVersions response body listing every supported API. */
export function apiVersionsResponseBody(errorCode: number = KafkaErrorCode.NONE): ApiVersionsResponse {
  return {
    errorCode,
    apiKeys: advertisedApiVersions(),
    throttleTimeMs: 0,
    supportedFeatures: [],
    finalizedFeaturesEpoch: -1,
    finalizedFeatures: [],
    zkMigrationReady: false,
  };
}

/**
 * The frame answering an ApiVersions request of an unsupported version: response header v0, body v0 with
 * UNSUPPORTED_VERSION (35) and the supported ranges.
 */
export function encodeApiVersionsFallback(correlationId: number): Uint8Array {
  return encodeResponse({ apiKey: 18, apiVersion: 0, correlationId }, apiVersionsResponseBody(KafkaErrorCode.UNSUPPORTED_VERSION));
}
