// The config list of a topic as CreateTopics (v5+) and DescribeConfigs report it: every known topic config with
// its effective value and source (explicit at creation, or the default), `nereus.storage.profile` read-only.
import { ConfigSource, ConfigType, STORAGE_PROFILE_CONFIG, TOPIC_CONFIGS } from "./topic-configs.js";
import type { KafkaTopic } from "./kafka-topic.js";

/** One described config. */
export interface DescribedConfig {
  readonly name: string;
  readonly value: string;
  readonly readOnly: boolean;
  readonly source: number;
  readonly type: number;
}

/** Every known config of `topic`, in TOPIC_CONFIGS order. */
export function describeTopicConfigs(topic: Pick<KafkaTopic, "configs" | "profile">): DescribedConfig[] {
  return [...TOPIC_CONFIGS.values()].map((definition) => {
    if (definition.name === STORAGE_PROFILE_CONFIG) {
      return {
        name: definition.name,
        value: topic.profile,
        readOnly: true,
        source: ConfigSource.DYNAMIC_TOPIC_CONFIG,
        type: ConfigType.STRING,
      };
    }
    const explicit = Object.hasOwn(topic.configs, definition.name);
    return {
      name: definition.name,
      value: explicit ? (topic.configs[definition.name] ?? definition.defaultValue) : definition.defaultValue,
      readOnly: false,
      source: explicit ? ConfigSource.DYNAMIC_TOPIC_CONFIG : ConfigSource.DEFAULT_CONFIG,
      type: ConfigType[definition.type],
    };
  });
}
