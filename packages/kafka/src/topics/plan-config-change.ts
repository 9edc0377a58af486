// What a topic's explicit configs become under an AlterConfigs (replace the whole set: configs not named return to
// their defaults) or an IncrementalAlterConfigs (SET, DELETE, APPEND, SUBTRACT on single configs) request, or why
// the request is refused — before anything is written, as Kafka validates a resource's whole change first. Refusals
// as Kafka's: duplicate names and null values are INVALID_REQUEST, unknown names, bad values and APPEND/SUBTRACT
// on a non-list config are INVALID_CONFIG. `nereus.storage.profile` is fixed at creation: naming it with the
// topic's own profile changes nothing, any other change is INVALID_CONFIG.
import { canonicalizeProfile } from "@nereus/core/internal";
import { ConfigOperation } from "../protocol/apis/incremental-alter-configs/incremental-alter-configs-request.js";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import type { KafkaTopic } from "./kafka-topic.js";
import { STORAGE_PROFILE_CONFIG, TOPIC_CONFIGS, effectiveTopicConfig, topicConfigProblem } from "./topic-configs.js";

/** A change request for one topic. */
export type ConfigChange =
  | {
      readonly kind: "replace";
      readonly configs: ReadonlyArray<{ readonly name: string; readonly value: string | null }>;
    }
  | {
      readonly kind: "incremental";
      readonly operations: ReadonlyArray<{
        readonly name: string;
        readonly configOperation: number;
        readonly value: string | null;
      }>;
    };

/** The topic's explicit configs after the change, or the refusal. */
export type ConfigChangePlan =
  | { readonly ok: true; readonly configs: Readonly<Record<string, string>> }
  | { readonly ok: false; readonly errorCode: number; readonly message: string };

const refuse = (errorCode: number, message: string): ConfigChangePlan => ({ ok: false, errorCode, message });

/** Plans `change` against `topic`'s current configs. Pure. */
export function planConfigChange(topic: KafkaTopic, change: ConfigChange): ConfigChangePlan {
  const names =
    change.kind === "replace"
      ? change.configs.map((entry) => entry.name)
      : change.operations.map((entry) => entry.name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate !== undefined)
    return refuse(KafkaErrorCode.INVALID_REQUEST, `Error due to duplicate config keys: ${duplicate}`);
  const next: Record<string, string> = change.kind === "replace" ? {} : { ...topic.configs };
  const entries =
    change.kind === "replace"
      ? change.configs.map((entry) => ({ ...entry, configOperation: ConfigOperation.set as number }))
      : change.operations;
  for (const { name, configOperation, value } of entries) {
    if (!TOPIC_CONFIGS.has(name)) return refuse(KafkaErrorCode.INVALID_CONFIG, `Unknown topic config name: ${name}`);
    if (name === STORAGE_PROFILE_CONFIG) {
      const problem = profileProblem(topic, configOperation, value);
      if (problem !== undefined) return problem;
      continue;
    }
    switch (configOperation) {
      case ConfigOperation.set: {
        if (value === null)
          return refuse(KafkaErrorCode.INVALID_REQUEST, `Null value not supported for topic configs: ${name}`);
        next[name] = value;
        break;
      }
      case ConfigOperation.delete:
        delete next[name];
        break;
      case ConfigOperation.append:
      case ConfigOperation.subtract: {
        if (TOPIC_CONFIGS.get(name)?.type !== "LIST") {
          return refuse(
            KafkaErrorCode.INVALID_CONFIG,
            `Config value append/subtract is not allowed for config key: ${name}`,
          );
        }
        if (value === null)
          return refuse(KafkaErrorCode.INVALID_REQUEST, `Null value not supported for topic configs: ${name}`);
        next[name] = applyListOperation(
          effectiveTopicConfig(next, name) ?? "",
          value,
          configOperation === ConfigOperation.append,
        );
        break;
      }
      default:
        return refuse(
          KafkaErrorCode.INVALID_REQUEST,
          `Unknown config operation ${String(configOperation)} for ${name}`,
        );
    }
    const stored = next[name];
    if (stored !== undefined) {
      const problem = topicConfigProblem(name, stored);
      if (problem !== undefined) return refuse(KafkaErrorCode.INVALID_CONFIG, problem);
    }
  }
  return {
    ok: true,
    configs: Object.fromEntries(Object.entries(next).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}

function profileProblem(
  topic: KafkaTopic,
  configOperation: number,
  value: string | null,
): ConfigChangePlan | undefined {
  const immutable = refuse(
    KafkaErrorCode.INVALID_CONFIG,
    `${STORAGE_PROFILE_CONFIG} is chosen when a topic is created and cannot be changed (topic ${topic.name} uses ${topic.profile})`,
  );
  if (configOperation !== ConfigOperation.set || value === null) return immutable;
  try {
    return canonicalizeProfile(value) === topic.profile ? undefined : immutable;
  } catch {
    return immutable;
  }
}

/** A list config's value with the items of `change` appended (each once) or removed. */
function applyListOperation(current: string, change: string, append: boolean): string {
  const items = current
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  const changed = change
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  const result = append
    ? [...items, ...changed.filter((item, index) => !items.includes(item) && changed.indexOf(item) === index)]
    : items.filter((item) => !changed.includes(item));
  return result.join(",");
}
