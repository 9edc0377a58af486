// Protocol versions: a client announces the highest it speaks in CONNECT, the broker answers the version both use
// in CONNECTED, and features are enabled by it. Named by the feature each version added.
/** Protocol versions a broker checks features against, by what they added. */
export const ProtocolVersion = {
  /** Checksums over metadata and payload. */
  CHECKSUM: 6,
  /** Binary topic lookup. */
  BINARY_LOOKUP: 7,
  /** Consumers before this version mishandle the checksum in MESSAGE frames. */
  CONSUMER_CHECKSUM: 11,
  /** GET_LAST_MESSAGE_ID, ACTIVE_CONSUMER_CHANGE, GET_TOPICS_OF_NAMESPACE. */
  LAST_MESSAGE_ID: 12,
  /** AUTH_CHALLENGE / AUTH_RESPONSE and Key_Shared subscriptions. */
  AUTH_CHALLENGE_AND_KEY_SHARED: 14,
  /** GET_OR_CREATE_SCHEMA. */
  GET_OR_CREATE_SCHEMA: 15,
  /** Broker entry metadata. */
  BROKER_ENTRY_METADATA: 16,
  /** Ack receipts (ACK_RESPONSE). */
  ACK_RECEIPT: 17,
  /** Clients that read broker entry metadata. */
  CLIENT_BROKER_ENTRY_METADATA: 18,
  /** Transaction coordinator connect commands. */
  TC_CLIENT_CONNECT: 19,
  /** TOPIC_MIGRATED. */
  TOPIC_MIGRATED: 20,
  /** AUTO_CONSUME schemas carried to the broker; the newest version. */
  AUTO_CONSUME_SCHEMA: 21,
} as const;
