// Capabilities a client announces in CONNECT and a broker in CONNECTED, and the authentication data exchanged by
// the connect and auth-refresh commands.
import { defineMessage } from "../wire/message-schema.js";
import { bool, bytes, string } from "../wire/proto-type.js";
import { optional } from "../wire/field-spec.js";

/** Optional protocol features; each absent flag means false. */
export interface FeatureFlags {
  /** The client answers AUTH_CHALLENGE to refresh its credentials. */
  readonly supportsAuthRefresh?: boolean;
  /** The client accepts MESSAGE frames that carry broker entry metadata. */
  readonly supportsBrokerEntryMetadata?: boolean;
  /** The client handles PRODUCER_SUCCESS with producerReady = false (waiting for exclusive access). */
  readonly supportsPartialProducer?: boolean;
  /** The broker serves topic-list watchers. */
  readonly supportsTopicWatchers?: boolean;
  /** The broker answers PARTITIONED_METADATA without creating the topic when asked to. */
  readonly supportsGetPartitionedMetadataWithoutAutoCreation?: boolean;
  /** The broker deduplicates replicated messages by their source ledger and entry ids. */
  readonly supportsReplDedupByLidAndEid?: boolean;
}

export const FeatureFlagsCodec = defineMessage<FeatureFlags>("FeatureFlags", {
  supportsAuthRefresh: optional(1, bool),
  supportsBrokerEntryMetadata: optional(2, bool),
  supportsPartialProducer: optional(3, bool),
  supportsTopicWatchers: optional(4, bool),
  supportsGetPartitionedMetadataWithoutAutoCreation: optional(5, bool),
  supportsReplDedupByLidAndEid: optional(6, bool),
});

/** Credentials of one authentication method (AUTH_CHALLENGE and AUTH_RESPONSE). */
export interface AuthData {
  readonly authMethodName?: string;
  readonly authData?: Uint8Array;
}

export const AuthDataCodec = defineMessage<AuthData>("AuthData", {
  authMethodName: optional(1, string),
  authData: optional(2, bytes),
});
