// Heartbeat request body (api key 12): a member of a classic group proving liveness for its generation.
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int32, string } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   HeartbeatRequest (api key 12), v0-4, flexible v4+
 *     groupId: string
 *     generationId: int32
 *     memberId: string
 *     groupInstanceId: string (v3+, nullable v3+)
 */
export const HeartbeatRequest = message({
  name: "HeartbeatRequest",
  apiKey: 12,
  type: "request",
  validVersions: "0-4",
  flexibleVersions: "4+",
  fields: {
    groupId: field(string),
    generationId: field(int32),
    memberId: field(string),
    groupInstanceId: nullableField(string, { versions: "3+", nullableVersions: "3+", default: null }),
  },
});

/** A decoded Heartbeat request body. */
export type HeartbeatRequest = MessageValue<typeof HeartbeatRequest>;
