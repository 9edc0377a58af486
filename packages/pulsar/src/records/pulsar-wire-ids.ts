// Durable wire ids of the adapter's record enums. Written down next to each value, never derived from positions.
import { WireEnum } from "@nereus/core/internal";
import type { PulsarTopicState } from "../topics/pulsar-topic.js";

export const PulsarWireIds = {
  topicState: new WireEnum<PulsarTopicState>("PulsarTopicState", [
    ["CREATING", 1],
    ["ACTIVE", 2],
    ["DELETING", 3],
    ["DELETED", 4],
  ]),
} as const;
