// FindCoordinator request body (api key 10): which broker coordinates a consumer group (keyType 0) or a
// transactional id (keyType 1). v4+ asks for several keys at once (KIP-699).
import { arrayOf } from "../../schema/array-type.js";
import { field } from "../../schema/field-spec.js";
import { type MessageValue, message } from "../../schema/message-schema.js";
import { int8, string } from "../../schema/scalar-types.js";

/** Coordinator key types. */
export const CoordinatorKeyType = { group: 0, transaction: 1, share: 2 } as const;

/**
 * Grammar:
 *
 *   FindCoordinatorRequest (api key 10), v0-6, flexible v3+
 *     key: string (v0-3)
 *     keyType: int8 (v1+)
 *     coordinatorKeys: []string (v4+)
 */
export const FindCoordinatorRequest = message({
  name: "FindCoordinatorRequest",
  apiKey: 10,
  type: "request",
  validVersions: "0-6",
  flexibleVersions: "3+",
  fields: {
    key: field(string, { versions: "0-3" }),
    /** {@link CoordinatorKeyType}. */
    keyType: field(int8, { versions: "1+" }),
    coordinatorKeys: field(arrayOf(string), { versions: "4+" }),
  },
});

/** A decoded FindCoordinator request body. */
export type FindCoordinatorRequest = MessageValue<typeof FindCoordinatorRequest>;
