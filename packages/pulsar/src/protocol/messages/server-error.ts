// The error codes a Pulsar broker answers with (ERROR, SEND_ERROR and the error fields of lookup, schema, stats
// and ack responses). Clients map each code to an exception and decide from it whether to retry.
import { protoEnum } from "../wire/proto-enum.js";

/** Error codes of the Pulsar protocol, by name. */
export const ServerError = {
  UnknownError: 0,
  /** Metadata store failure. */
  MetadataError: 1,
  /** Storage (write or read) failure. */
  PersistenceError: 2,
  AuthenticationError: 3,
  AuthorizationError: 4,
  /** Subscribe or unsubscribe refused because of the other consumers of the subscription. */
  ConsumerBusy: 5,
  /** The client should retry after a fresh lookup. */
  ServiceNotReady: 6,
  ProducerBlockedQuotaExceededError: 7,
  ProducerBlockedQuotaExceededException: 8,
  /** The checksum of a sent message did not match its bytes. */
  ChecksumError: 9,
  UnsupportedVersionError: 10,
  TopicNotFound: 11,
  SubscriptionNotFound: 12,
  ConsumerNotFound: 13,
  TooManyRequests: 14,
  TopicTerminatedError: 15,
  /** A producer with the same name is already connected. */
  ProducerBusy: 16,
  InvalidTopicName: 17,
  IncompatibleSchema: 18,
  ConsumerAssignError: 19,
  TransactionCoordinatorNotFound: 20,
  InvalidTxnStatus: 21,
  NotAllowedError: 22,
  TransactionConflict: 23,
  TransactionNotFound: 24,
  /** The producer lost (or never got) exclusive access and must be closed. */
  ProducerFenced: 25,
} as const;

export const serverErrorType = protoEnum("ServerError", ServerError);
