// ApiVersions response body (api key 18): the version range of every API the broker serves. Always sent with
// response header v0. On an unsupported request version the broker answers in v0 with UNSUPPORTED_VERSION (35).
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bool, int16, int32, int64, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const apiVersion = struct("ApiVersion", {
  apiKey: field(int16),
  minVersion: field(int16),
  maxVersion: field(int16),
});

const supportedFeatureKey = struct("SupportedFeatureKey", {
  name: field(string, { versions: "3+" }),
  minVersion: field(int16, { versions: "3+" }),
  maxVersion: field(int16, { versions: "3+" }),
});

const finalizedFeatureKey = struct("FinalizedFeatureKey", {
  name: field(string, { versions: "3+" }),
  maxVersionLevel: field(int16, { versions: "3+" }),
  minVersionLevel: field(int16, { versions: "3+" }),
});

/**
 * Grammar:
 *
 *   ApiVersionsResponse (api key 18), v0-4, flexible v3+
 *     errorCode: int16
 *     apiKeys: []ApiVersion
 *       apiKey: int16
 *       minVersion: int16
 *       maxVersion: int16
 *     throttleTimeMs: int32 (v1+)
 *     supportedFeatures: []SupportedFeatureKey (v3+, tag 0 v3+)
 *       name: string (v3+)
 *       minVersion: int16 (v3+)
 *       maxVersion: int16 (v3+)
 *     finalizedFeaturesEpoch: int64 (v3+, tag 1 v3+)
 *     finalizedFeatures: []FinalizedFeatureKey (v3+, tag 2 v3+)
 *       name: string (v3+)
 *       maxVersionLevel: int16 (v3+)
 *       minVersionLevel: int16 (v3+)
 *     zkMigrationReady: bool (v3+, tag 3 v3+)
 */
export const ApiVersionsResponse = message({
  name: "ApiVersionsResponse",
  apiKey: 18,
  type: "response",
  validVersions: "0-4",
  flexibleVersions: "3+",
  fields: {
    errorCode: field(int16),
    /** One entry per API the broker supports. */
    apiKeys: field(arrayOf(apiVersion)),
    throttleTimeMs: field(int32, { versions: "1+" }),
    supportedFeatures: field(arrayOf(supportedFeatureKey), { versions: "3+", tag: 0, taggedVersions: "3+" }),
    finalizedFeaturesEpoch: field(int64, { versions: "3+", tag: 1, taggedVersions: "3+", default: -1 }),
    finalizedFeatures: field(arrayOf(finalizedFeatureKey), { versions: "3+", tag: 2, taggedVersions: "3+" }),
    zkMigrationReady: field(bool, { versions: "3+", tag: 3, taggedVersions: "3+" }),
  },
});

/** A decoded ApiVersions response body. */
export type ApiVersionsResponse = MessageValue<typeof ApiVersionsResponse>;
/** One API's supported version range. */
export type ApiVersionsResponseApiKey = StructValue<typeof apiVersion.fields>;
