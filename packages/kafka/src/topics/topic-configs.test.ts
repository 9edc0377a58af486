import { describe, expect, test } from "vitest";
import { describeTopicConfigs } from "./describe-topic-configs.js";
import {
  STORAGE_PROFILE_CONFIG,
  TOPIC_CONFIGS,
  maxMessageBytes,
  topicConfigProblem,
  usesLogAppendTime,
} from "./topic-configs.js";
import { collisionForm, topicNameProblem } from "./topic-name.js";

describe("topic configs", () => {
  test("accepts known configs with values of their type", () => {
    for (const [name, value] of [
      ["retention.ms", "-1"],
      ["retention.bytes", "1073741824"],
      ["cleanup.policy", "compact,delete"],
      ["max.message.bytes", "2097152"],
      ["min.cleanable.dirty.ratio", "0.1"],
      ["unclean.leader.election.enable", "TRUE"],
      ["message.timestamp.type", "LogAppendTime"],
      [STORAGE_PROFILE_CONFIG, "OBJECT_WAL"],
      [STORAGE_PROFILE_CONFIG, "BOOKKEEPER_WAL_SYNC_OBJECT"],
    ] as const) {
      expect(topicConfigProblem(name, value), `${name}=${value}`).toBeUndefined();
    }
  });

  test("refuses unknown names, null values and values of the wrong type or range, like Kafka", () => {
    expect(topicConfigProblem("retention.mss", "1")).toBe("Unknown topic config name: retention.mss");
    expect(topicConfigProblem("retention.ms", null)).toBe("Null value not supported for topic configs: retention.ms");
    expect(topicConfigProblem("retention.ms", "soon")).toContain("Not a number of type LONG");
    expect(topicConfigProblem("retention.ms", "9223372036854775808")).toContain("Not a number of type LONG");
    expect(topicConfigProblem("retention.ms", "-2")).toContain("Value must be at least -1");
    expect(topicConfigProblem("max.message.bytes", "2147483648")).toContain("Not a number of type INT");
    expect(topicConfigProblem("cleanup.policy", "forever")).toContain("String must be one of");
    expect(topicConfigProblem("compression.type", "gzip")).toContain("String must be one of: producer");
    expect(topicConfigProblem("preallocate", "yes")).toContain("either true or false");
    expect(topicConfigProblem("min.cleanable.dirty.ratio", "1.5")).toContain("no more than 1");
    expect(topicConfigProblem(STORAGE_PROFILE_CONFIG, "FAST")).toContain("unknown storage profile");
  });

  test("effective values fall back to Kafka's defaults", () => {
    expect(maxMessageBytes({})).toBe(1_048_588);
    expect(maxMessageBytes({ "max.message.bytes": "100" })).toBe(100);
    expect(usesLogAppendTime({})).toBe(false);
    expect(usesLogAppendTime({ "message.timestamp.type": "LogAppendTime" })).toBe(true);
    const described = describeTopicConfigs({ configs: { "retention.ms": "5" }, profile: "BOOKKEEPER_WAL_ONLY" });
    expect(described).toHaveLength(TOPIC_CONFIGS.size);
    expect(described.find((config) => config.name === "retention.ms")).toMatchObject({
      value: "5",
      source: 1,
      readOnly: false,
      type: 5,
    });
    expect(described.find((config) => config.name === "cleanup.policy")).toMatchObject({
      value: "delete",
      source: 5,
      type: 7,
    });
    expect(described.find((config) => config.name === STORAGE_PROFILE_CONFIG)).toMatchObject({
      value: "BOOKKEEPER_WAL_ONLY",
      readOnly: true,
    });
  });
});

describe("topic names", () => {
  test("follow Kafka's rules", () => {
    for (const name of ["orders", "a.b-c_D9", "x".repeat(249), "__consumer_offsets"])
      expect(topicNameProblem(name), name).toBeUndefined();
    for (const name of ["", ".", "..", "x".repeat(250), "with space", "slash/no", "ümlaut", null])
      expect(topicNameProblem(name), String(name)).toBeDefined();
    expect(collisionForm("a.b_c")).toBe(collisionForm("a_b.c"));
  });
});
