// GET_TOPICS_OF_NAMESPACE and its response: the topics of a namespace, optionally filtered by a pattern (pattern
// consumers poll it).
import { defineMessage } from "../wire/message-schema.js";
import { protoEnum } from "../wire/proto-enum.js";
import { bool, string, uint64 } from "../wire/proto-type.js";
import { optional, repeated, required } from "../wire/field-spec.js";

/** Which topics to list, by name. */
export const TopicListMode = { PERSISTENT: 0, NON_PERSISTENT: 1, ALL: 2 } as const;

/** GET_TOPICS_OF_NAMESPACE. */
export interface CommandGetTopicsOfNamespace {
  readonly requestId: bigint;
  /** `tenant/namespace`. */
  readonly namespace: string;
  /** A {@link TopicListMode} value; absent means PERSISTENT. */
  readonly mode?: number;
  /** Regular expression the topic names must match. */
  readonly topicsPattern?: string;
  /** Hash of the list the client already has. */
  readonly topicsHash?: string;
}

export const CommandGetTopicsOfNamespaceCodec = defineMessage<CommandGetTopicsOfNamespace>(
  "CommandGetTopicsOfNamespace",
  {
    requestId: required(1, uint64),
    namespace: required(2, string),
    mode: optional(3, protoEnum("CommandGetTopicsOfNamespace.Mode", TopicListMode)),
    topicsPattern: optional(4, string),
    topicsHash: optional(5, string),
  },
);

/** GET_TOPICS_OF_NAMESPACE_RESPONSE. */
export interface CommandGetTopicsOfNamespaceResponse {
  readonly requestId: bigint;
  readonly topics?: readonly string[];
  /** True when the broker applied the pattern; absent means false. */
  readonly filtered?: boolean;
  readonly topicsHash?: string;
  /** False (with no topics) when the list matches the client's hash; absent means true. */
  readonly changed?: boolean;
}

export const CommandGetTopicsOfNamespaceResponseCodec = defineMessage<CommandGetTopicsOfNamespaceResponse>(
  "CommandGetTopicsOfNamespaceResponse",
  {
    requestId: required(1, uint64),
    topics: repeated(2, string),
    filtered: optional(3, bool),
    topicsHash: optional(4, string),
    changed: optional(5, bool),
  },
);
