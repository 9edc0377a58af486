// FindCoordinator response body (api key 10): the coordinator's node id, host and port (v0-3), or one entry per
// requested key (v4+).
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int16, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const coordinator = struct("Coordinator", {
  key: field(string, { versions: "4+" }),
  nodeId: field(int32, { versions: "4+" }),
  host: field(string, { versions: "4+" }),
  port: field(int32, { versions: "4+" }),
  errorCode: field(int16, { versions: "4+" }),
  errorMessage: nullableField(string, { versions: "4+", nullableVersions: "4+" }),
});

/**
 * Grammar:
 *
 *   FindCoordinatorResponse (api key 10), v0-6, flexible v3+
 *     throttleTimeMs: int32 (v1+)
 *     errorCode: int16 (v0-3)
 *     errorMessage: string (v1-3, nullable v1-3)
 *     nodeId: int32 (v0-3)
 *     host: string (v0-3)
 *     port: int32 (v0-3)
 *     coordinators: []Coordinator (v4+)
 *       key: string (v4+)
 *       nodeId: int32 (v4+)
 *       host: string (v4+)
 *       port: int32 (v4+)
 *       errorCode: int16 (v4+)
 *       errorMessage: string (v4+, nullable v4+)
 */
export const FindCoordinatorResponse = message({
  name: "FindCoordinatorResponse",
  apiKey: 10,
  type: "response",
  validVersions: "0-6",
  flexibleVersions: "3+",
  fields: {
    throttleTimeMs: field(int32, { versions: "1+" }),
    errorCode: field(int16, { versions: "0-3" }),
    errorMessage: nullableField(string, { versions: "1-3", nullableVersions: "1-3" }),
    nodeId: field(int32, { versions: "0-3" }),
    host: field(string, { versions: "0-3" }),
    port: field(int32, { versions: "0-3" }),
    coordinators: field(arrayOf(coordinator), { versions: "4+" }),
  },
});

/** A FindCoordinator response body. */
export type FindCoordinatorResponse = MessageValue<typeof FindCoordinatorResponse>;
/** One coordinator (v4+). */
export type FindCoordinatorResponseCoordinator = StructValue<typeof coordinator.fields>;
