// SyncGroup response body (api key 14): the member's own assignment bytes (never null; empty when it has none).
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bytes, int16, int32, string } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   SyncGroupResponse (api key 14), v0-5, flexible v4+
 *     throttleTimeMs: int32 (v1+)
 *     errorCode: int16
 *     protocolType: string (v5+, nullable v5+)
 *     protocolName: string (v5+, nullable v5+)
 *     assignment: bytes
 */
export const SyncGroupResponse = message({
  name: "SyncGroupResponse",
  apiKey: 14,
  type: "response",
  validVersions: "0-5",
  flexibleVersions: "4+",
  fields: {
    throttleTimeMs: field(int32, { versions: "1+" }),
    errorCode: field(int16),
    protocolType: nullableField(string, { versions: "5+", nullableVersions: "5+", default: null }),
    protocolName: nullableField(string, { versions: "5+", nullableVersions: "5+", default: null }),
    assignment: field(bytes),
  },
});

/** A SyncGroup response body. */
export type SyncGroupResponse = MessageValue<typeof SyncGroupResponse>;
