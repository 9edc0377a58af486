// ApiVersions answers built from SUPPORTED_APIS: the advertised ranges, and the v0 UNSUPPORTED_VERSION body a
// broker sends when a client asks for an ApiVersions version it does not know (the client then retries with the
// highest ApiVersions version listed).
import type { ApiVersionsResponse, ApiVersionsResponseApiKey } from "./apis/api-versions/api-versions-response.js";
import { encodeResponse } from "./encode-response.js";
import { KafkaErrorCode } from "./error-codes.js";
import { SUPPORTED_APIS } from "./supported-apis.js";

/**
 * Highest version to advertise per API key, below the codec's maximum (e.g. `{ 1: 12 }` keeps Fetch below the
 * topic-id versions until the broker serves topic ids). A cap below an API's minimum leaves the API out.
 */
export type MaxVersionCaps = Readonly<Partial<Record<number, number>>>;

/** One entry per supported API, ascending by API key, with `caps` applied. */
export function advertisedApiVersions(caps: MaxVersionCaps = {}): ApiVersionsResponseApiKey[] {
  return Object.values(SUPPORTED_APIS)
    .map((api) => ({
      apiKey: api.apiKey,
      minVersion: api.minVersion,
      maxVersion: Math.min(api.maxVersion, caps[api.apiKey] ?? Infinity),
    }))
    .filter((entry) => entry.maxVersion >= entry.minVersion)
    .sort((left, right) => left.apiKey - right.apiKey);
}

/** Options of {@link apiVersionsResponseBody}. */
export interface ApiVersionsResponseOptions {
  readonly errorCode?: number;
  readonly caps?: MaxVersionCaps;
}

/** A complete ApiVersions response body listing every supported API. */
export function apiVersionsResponseBody(options: ApiVersionsResponseOptions = {}): ApiVersionsResponse {
  return {
    errorCode: options.errorCode ?? KafkaErrorCode.NONE,
    apiKeys: advertisedApiVersions(options.caps),
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
export function encodeApiVersionsFallback(correlationId: number, caps: MaxVersionCaps = {}): Uint8Array {
  return encodeResponse(
    { apiKey: 18, apiVersion: 0, correlationId },
    apiVersionsResponseBody({ errorCode: KafkaErrorCode.UNSUPPORTED_VERSION, caps }),
  );
}
