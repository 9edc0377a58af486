import { describe, expect, test } from "vitest";
import { KafkaErrorCode } from "../protocol/error-codes.js";
import type { KafkaTopic } from "./kafka-topic.js";
import { planConfigChange } from "./plan-config-change.js";

const topic: KafkaTopic = {
  name: "orders",
  topicId: "5d5c1f5e-7f52-4a8e-9d1c-0a3f1c2b4e6d",
  state: "ACTIVE",
  partitionCount: 1,
  profile: "OBJECT_WAL_SYNC_OBJECT",
  configs: { "max.message.bytes": "2000", "retention.ms": "60000" },
  createdAtMillis: 0,
};

const SET = 0;
const DELETE = 1;
const APPEND = 2;
const SUBTRACT = 3;

describe("planConfigChange", () => {
  test("replace: the named configs are the whole set afterwards", () => {
    expect(
      planConfigChange(topic, {
        kind: "replace",
        configs: [
          { name: "retention.ms", value: "1000" },
          { name: "cleanup.policy", value: "compact,delete" },
        ],
      }),
    ).toEqual({
      ok: true,
      configs: { "cleanup.policy": "compact,delete", "retention.ms": "1000" },
    });
    expect(planConfigChange(topic, { kind: "replace", configs: [] })).toEqual({ ok: true, configs: {} });
  });

  test("incremental: set, delete, append and subtract act on single configs", () => {
    expect(
      planConfigChange(topic, {
        kind: "incremental",
        operations: [
          { name: "retention.ms", configOperation: SET, value: "5000" },
          { name: "max.message.bytes", configOperation: DELETE, value: null },
          { name: "cleanup.policy", configOperation: APPEND, value: "compact" },
        ],
      }),
    ).toEqual({ ok: true, configs: { "cleanup.policy": "delete,compact", "retention.ms": "5000" } });
    const compacted = { ...topic, configs: { "cleanup.policy": "delete,compact" } };
    expect(
      planConfigChange(compacted, {
        kind: "incremental",
        operations: [{ name: "cleanup.policy", configOperation: SUBTRACT, value: "delete" }],
      }),
    ).toEqual({
      ok: true,
      configs: { "cleanup.policy": "compact" },
    });
    // Appending what is there already changes nothing; deleting an unset config is a no-op.
    expect(
      planConfigChange(compacted, {
        kind: "incremental",
        operations: [
          { name: "cleanup.policy", configOperation: APPEND, value: "compact" },
          { name: "segment.ms", configOperation: DELETE, value: null },
        ],
      }),
    ).toEqual({
      ok: true,
      configs: { "cleanup.policy": "delete,compact" },
    });
  });

  test("refusals name the config, with Kafka's error codes", () => {
    const refused = (change: Parameters<typeof planConfigChange>[1]) => planConfigChange(topic, change);
    expect(
      refused({
        kind: "replace",
        configs: [
          { name: "retention.ms", value: "1" },
          { name: "retention.ms", value: "2" },
        ],
      }),
    ).toMatchObject({
      ok: false,
      errorCode: KafkaErrorCode.INVALID_REQUEST,
      message: expect.stringContaining("duplicate"),
    });
    expect(refused({ kind: "replace", configs: [{ name: "retention.ms", value: null }] })).toMatchObject({
      ok: false,
      errorCode: KafkaErrorCode.INVALID_REQUEST,
    });
    expect(refused({ kind: "replace", configs: [{ name: "no.such.config", value: "1" }] })).toMatchObject({
      ok: false,
      errorCode: KafkaErrorCode.INVALID_CONFIG,
      message: "Unknown topic config name: no.such.config",
    });
    expect(
      refused({ kind: "incremental", operations: [{ name: "retention.ms", configOperation: SET, value: "soon" }] }),
    ).toMatchObject({
      ok: false,
      errorCode: KafkaErrorCode.INVALID_CONFIG,
      message: expect.stringContaining("retention.ms"),
    });
    expect(
      refused({ kind: "incremental", operations: [{ name: "retention.ms", configOperation: APPEND, value: "1" }] }),
    ).toMatchObject({ ok: false, errorCode: KafkaErrorCode.INVALID_CONFIG });
    expect(
      refused({ kind: "incremental", operations: [{ name: "retention.ms", configOperation: 9, value: "1" }] }),
    ).toMatchObject({ ok: false, errorCode: KafkaErrorCode.INVALID_REQUEST });
    expect(
      refused({
        kind: "incremental",
        operations: [{ name: "cleanup.policy", configOperation: SET, value: "forever" }],
      }),
    ).toMatchObject({ ok: false, errorCode: KafkaErrorCode.INVALID_CONFIG });
  });

  test("nereus.storage.profile is fixed at creation: naming the topic's own profile is accepted, anything else refused", () => {
    expect(
      planConfigChange(topic, { kind: "replace", configs: [{ name: "nereus.storage.profile", value: "OBJECT_WAL" }] }),
    ).toEqual({ ok: true, configs: {} });
    expect(
      planConfigChange(topic, {
        kind: "incremental",
        operations: [{ name: "nereus.storage.profile", configOperation: SET, value: "BOOKKEEPER_WAL_SYNC_OBJECT" }],
      }),
    ).toMatchObject({
      ok: false,
      errorCode: KafkaErrorCode.INVALID_CONFIG,
      message: expect.stringContaining("cannot be changed"),
    });
    expect(
      planConfigChange(topic, {
        kind: "incremental",
        operations: [{ name: "nereus.storage.profile", configOperation: DELETE, value: null }],
      }),
    ).toMatchObject({ ok: false, errorCode: KafkaErrorCode.INVALID_CONFIG });
  });
});
