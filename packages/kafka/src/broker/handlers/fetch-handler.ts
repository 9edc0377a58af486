// Fetch (1), v4-17: whole stored batches from the requested offsets (a fetch offset inside a batch returns that
// batch; clients skip the records below it), within maxBytes across the response and partitionMaxBytes per
// partition, except that the first batch of the first non-empty partition is always returned whole (KIP-74).
// Long poll: when fewer than minBytes are available and no partition has an error, the request waits up to
// maxWaitMs (capped by the broker) and is re-evaluated whenever an append commits to one of its partitions.
// High watermark = last stable offset = the log end; log start = the trim offset; no fetch sessions (sessionId 0
// always, so clients keep sending full requests, and forgotten_topics_data, meaningful only inside a session, is
// ignored); no aborted transactions. v13+ address topics by topic id: ids resolve through the topic registry, the
// response echoes the requested id, and every partition of an id the broker does not know (the zero id included)
// answers UNKNOWN_TOPIC_ID (100), as Kafka does; v4-12 address topics by name (unknown: UNKNOWN_TOPIC_OR_PARTITION).
import { IsolationLevel } from "../../protocol/apis/fetch/fetch-request.js";
import { KafkaErrorCode } from "../../protocol/error-codes.js";
import { ZERO_UUID } from "../../protocol/primitives/uuid.js";
import type { BrokerServices } from "../broker-services.js";
import type { KafkaApiHandler } from "../kafka-api-handler.js";
import type { TopicLookup } from "../lookup-topic.js";
import { lookupAuthorizedTopic } from "../lookup-authorized-topic.js";
import { AclOperation } from "../../security/acl/acl-types.js";
import { AppendWatch, requestedLogs } from "./append-watch.js";
import { type FetchRequestPlan, evaluateFetch } from "./evaluate-fetch.js";

const FINAL_EPOCH = -1;
const INITIAL_EPOCH = 0;
/** The first Fetch version that addresses topics by id instead of name. */
const FETCH_TOPIC_ID_VERSION = 13;

export function createFetchHandler(services: BrokerServices): KafkaApiHandler<1> {
  return {
    async handle(context, request) {
      const { body } = request;
      const readCommitted = body.isolationLevel === IsolationLevel.readCommitted;
      const base = { throttleTimeMs: 0, sessionId: 0, nodeEndpoints: [] };
      if (body.sessionId !== 0) return { ...base, errorCode: KafkaErrorCode.FETCH_SESSION_ID_NOT_FOUND, responses: [] };
      if (body.sessionEpoch !== FINAL_EPOCH && body.sessionEpoch !== INITIAL_EPOCH) {
        return { ...base, errorCode: KafkaErrorCode.INVALID_FETCH_SESSION_EPOCH, responses: [] };
      }
      const maxWaitMs = Math.max(0, Math.min(body.maxWaitMs, services.settings.maxFetchWaitMs));
      const deadline = services.clock() + maxWaitMs;
      // One resolved topic per requested topic entry (by id from v13, by name before), each distinct key looked up once.
      const byId = request.apiVersion >= FETCH_TOPIC_ID_VERSION;
      const unknownTopicError = byId ? KafkaErrorCode.UNKNOWN_TOPIC_ID : KafkaErrorCode.UNKNOWN_TOPIC_OR_PARTITION;
      const access = await services.authorizer.access(context);
      const resolved = new Map<string, TopicLookup>();
      const lookups: TopicLookup[] = [];
      for (const requested of body.topics) {
        const key = byId ? requested.topicId : requested.topic;
        let lookup = resolved.get(key);
        if (lookup === undefined) {
          lookup =
            byId && requested.topicId === ZERO_UUID
              ? { kind: "absent" }
              : await lookupAuthorizedTopic(
                  services,
                  access,
                  AclOperation.READ,
                  byId ? { topicId: requested.topicId } : { name: requested.topic },
                  context.signal,
                );
          resolved.set(key, lookup);
        }
        lookups.push(lookup);
      }
      const topics = lookups.map((lookup) => (lookup.kind === "found" ? lookup.topic : undefined));
      const plan: FetchRequestPlan = {
        services,
        signal: context.signal,
        readCommitted,
        unknownTopicError,
        maxBytes: body.maxBytes,
        requested: body.topics,
        lookups,
        topics,
      };
      // Subscribed before each evaluation, through the manager (a log dropped while idle is replaced by a new one).
      let watch = new AppendWatch(requestedLogs(services, body.topics, topics));
      let result = await evaluateFetch(plan);
      let waited = false;
      while (result.bytes < body.minBytes && !result.error && !context.waitSignal.aborted) {
        const remaining = deadline - services.clock();
        if (remaining <= 0) break;
        if (!waited) services.metrics.fetchWaits += 1;
        waited = true;
        await watch.wait(remaining, context.waitSignal);
        watch = new AppendWatch(requestedLogs(services, body.topics, topics));
        result = await evaluateFetch(plan);
      }
      watch.close();
      services.metrics.fetchedBytes += result.bytes;
      for (const { topic, records, bytes } of result.traffic) services.metrics.topicFetched(topic, records, bytes);
      return { ...base, errorCode: KafkaErrorCode.NONE, responses: result.responses };
    },
  };
}
