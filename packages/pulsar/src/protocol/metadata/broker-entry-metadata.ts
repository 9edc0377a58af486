// BrokerEntryMetadata: what a broker may put in front of a stored entry when delivering it to a consumer that
// negotiated it: the broker's receive time and the entry's index (offset) in the topic.
import { defineMessage } from "../wire/message-schema.js";
import { uint64 } from "../wire/proto-type.js";
import { optional } from "../wire/field-spec.js";

/** Broker-assigned facts about an entry. */
export interface BrokerEntryMetadata {
  /** Milliseconds since the epoch when the broker received the entry. */
  readonly brokerTimestamp?: bigint;
  /** Index of the entry's last message in the topic. */
  readonly index?: bigint;
}

export const BrokerEntryMetadataCodec = defineMessage<BrokerEntryMetadata>("BrokerEntryMetadata", {
  brokerTimestamp: optional(1, uint64),
  index: optional(2, uint64),
});
