// Where LOOKUP sends a client. A broker alone serves every topic: it answers Connect to its own URL. With topic
// ownership shared among several brokers (PulsarTopicOwnership, one owner per topic partition among the live
// brokers), the owner answers Connect to itself and every other broker answers Redirect to the owner's URL; both are
// authoritative (naming the owner's TLS URL too when it has one), since every broker derives the owner from the same live set (a client that follows a Redirect asks
// the owner, which answers Connect). While no owner is known the lookup fails with ServiceNotReady, which clients
// retry.
import { type CommandLookupTopicResponse, LookupOutcome, ServerError } from "../protocol/index.js";

/** Which broker owns a topic when several brokers share the topics of one cluster. */
export interface PulsarTopicOwnership {
  /** True when this broker owns `topic` (a fully qualified topic or partition name) now. */
  ownsTopic(topic: string): boolean;
  /**
   * The service URLs of the live broker that owns `topic` (a fully qualified topic or partition name), or undefined
   * while none is known. Every broker with the same live set names the same owner.
   */
  ownerUrls(topic: string): OwnerUrls | undefined;
}

/** Where a topic's owner serves Pulsar clients. */
export interface OwnerUrls {
  /** `pulsar://host:port` (or the TLS URL when the owner serves TLS clients only). */
  readonly url: string;
  /** `pulsar+ssl://host:port`, when the owner has a TLS listener. */
  readonly urlTls?: string;
}

/** This broker's service URLs, as LOOKUP names them. */
interface OwnUrls {
  readonly advertisedUrl: string;
  readonly advertisedUrlTls: string | undefined;
  readonly topicOwnership: PulsarTopicOwnership | undefined;
}

/** The LOOKUP_RESPONSE for `topic` from the broker described by `self` (see the module comment). */
export function lookupAnswer(requestId: bigint, topic: string, self: OwnUrls): CommandLookupTopicResponse {
  const ownership = self.topicOwnership;
  if (ownership === undefined || ownership.ownsTopic(topic)) {
    return {
      requestId,
      response: LookupOutcome.Connect,
      brokerServiceUrl: self.advertisedUrl,
      ...(self.advertisedUrlTls === undefined ? {} : { brokerServiceUrlTls: self.advertisedUrlTls }),
      authoritative: true,
    };
  }
  const owner = ownership.ownerUrls(topic);
  if (owner === undefined) {
    return {
      requestId,
      response: LookupOutcome.Failed,
      error: ServerError.ServiceNotReady,
      message: `no live broker owns ${topic} now`,
    };
  }
  return {
    requestId,
    response: LookupOutcome.Redirect,
    brokerServiceUrl: owner.url,
    ...(owner.urlTls === undefined ? {} : { brokerServiceUrlTls: owner.urlTls }),
    authoritative: true,
  };
}
