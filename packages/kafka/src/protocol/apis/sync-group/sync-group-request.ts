// SyncGroup request body (api key 14): after JoinGroup the leader sends every member's assignment, followers send
// none; each receives its own assignment bytes in the response.
import { arrayOf } from "../../schema/array-type.js";
import { field, nullableField } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { bytes, int32, string } from "../../schema/scalar-types.js";
import { type StructValue, struct } from "../../schema/struct-schema.js";

const syncGroupRequestAssignment = struct("SyncGroupRequestAssignment", {
  memberId: field(string),
  assignment: field(bytes),
});

/**
 * Grammar:
 *
 *   SyncGroupRequest (api key 14), v0-5, flexible v4+
 *     groupId: string
 *     generationId: int32
 *     memberId: string
 *     groupInstanceId: string (v3+, nullable v3+)
 *     protocolType: string (v5+, nullable v5+)
 *     protocolName: string (v5+, nullable v5+)
 *     assignments: []SyncGroupRequestAssignment
 *       memberId: string
 *       assignment: bytes
 */
export const SyncGroupRequest = message({
  name: "SyncGroupRequest",
  apiKey: 14,
  type: "request",
  validVersions: "0-5",
  flexibleVersions: "4+",
  fields: {
    groupId: field(string),
    generationId: field(int32),
    memberId: field(string),
    groupInstanceId: nullableField(string, { versions: "3+", nullableVersions: "3+", default: null }),
    protocolType: nullableField(string, { versions: "5+", nullableVersions: "5+", default: null }),
    protocolName: nullableField(string, { versions: "5+", nullableVersions: "5+", default: null }),
    assignments: field(arrayOf(syncGroupRequestAssignment)),
  },
});

/** A decoded SyncGroup request body. */
export type SyncGroupRequest = MessageValue<typeof SyncGroupRequest>;
/** One member's assignment (sent by the leader). */
export type SyncGroupRequestAssignment = StructValue<typeof syncGroupRequestAssignment.fields>;
