// Heartbeat response body (api key 12): REBALANCE_IN_PROGRESS tells the member to re-join.
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32 } from "../../schema/scalar-types.js";

/**
 * Grammar:
 *
 *   HeartbeatResponse (api key 12), v0-4, flexible v4+
 *     throttleTimeMs: int32 (v1+)
 *     errorCode: int16
 */
export const HeartbeatResponse = message({
  name: "HeartbeatResponse",
  apiKey: 12,
  type: "response",
  validVersions: "0-4",
  flexibleVersions: "4+",
  fields: {
    throttleTimeMs: field(int32, { versions: "1+" }),
    errorCode: field(int16),
  },
});

/** A Heartbeat response body. */
export type HeartbeatResponse = MessageValue<typeof HeartbeatResponse>;
