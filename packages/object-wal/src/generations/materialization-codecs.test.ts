import { fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { expectCorruptionRejected, invariantViolation } from "@nereus/core/testing";
import {
  parseStreamRegistrationKey,
  registryShard,
  streamMaterializationKey,
  streamRegistrationKey,
} from "./materialization-keys.js";
import type { MaterializationTask, StreamMaterialization, StreamRegistration } from "./materialization-records.js";
import { streamMaterializationCodec } from "./stream-materialization-codec.js";
import { streamRegistrationCodec } from "./stream-registration-codec.js";

const REGISTRATION: StreamRegistration = {
  streamId: "s-orders",
  profile: "OBJECT_WAL_ASYNC_OBJECT",
  registeredAtMillis: 1_764_504_000_000,
};

const TASK: MaterializationTask = {
  taskId: "mt1-abc",
  state: "PREPARED",
  level: 1,
  offsetStart: 100,
  offsetEnd: 105,
  sourceKind: "GENERATION_ZERO",
  sourceCount: 2,
  sourceDigest: "ab".repeat(32),
  attempt: 2,
  claim: { workerId: "broker-1", token: "t0k3n", expiresAtMillis: 1_764_504_030_000 },
  generation: 7,
  output: {
    type: "OBJECT_SLICE",
    version: 1,
    objectKey: "wal/v1/00/0000000000000000042-abc",
    objectType: "STREAM_GENERATION_OBJECT",
    sliceOffset: 4096,
    sliceLength: 321,
    sliceChecksum: 0xe3069283,
    entryCount: 2,
  },
};

const MATERIALIZATION: StreamMaterialization = {
  streamId: "s-orders",
  generationZeroIndexedEnd: 120,
  materializedEnd: 100,
  materializedCumulativeSize: 4096,
  mergedEnd: 50,
  nextGeneration: 8,
  task: TASK,
};

// Frozen golden fixtures, produced once by an independent encoder of the documented layouts.
const GOLDEN_REGISTRATION = [
  "4e524d31", // magic "NRM1"
  "0000001253747265616d526567697374726174696f6e", // recordType "StreamRegistration"
  "0001000101", // schemaVersion 1, minReaderSchemaVersion 1, payloadEncoding 1
  "00000015", // payloadLength 21
  "9584c026", // payloadCrc32c
  "00000008732d6f7264657273", // streamId
  "02", // profile OBJECT_WAL_ASYNC_OBJECT (2)
  "0000019ad4a25600", // registeredAtMillis
].join("");

const GOLDEN_MATERIALIZATION = [
  "4e524d31", // magic "NRM1"
  "0000001553747265616d4d6174657269616c697a6174696f6e", // recordType "StreamMaterialization"
  "0001000101", // schemaVersion 1, minReaderSchemaVersion 1, payloadEncoding 1
  "00000125", // payloadLength 293
  "9a7c25a3", // payloadCrc32c
  "00000008732d6f7264657273", // streamId
  "0000000000000078", // generationZeroIndexedEnd 120
  "0000000000000064", // materializedEnd 100
  "0000000000001000", // materializedCumulativeSize 4096
  "0000000000000032", // mergedEnd 50
  "0000000000000008", // nextGeneration 8
  "01", // task present
  "000000076d74312d616263", // taskId
  "02", // state PREPARED (2)
  "00000001", // level 1
  "0000000000000064", // offsetStart 100
  "0000000000000069", // offsetEnd 105
  "01", // sourceKind GENERATION_ZERO (1)
  "00000002", // sourceCount 2
  "0000004061626162616261626162616261626162616261626162616261626162616261626162616261626162616261626162616261626162616261626162616261626162", // sourceDigest
  "00000002", // attempt 2
  "01", // claim present
  "0000000862726f6b65722d31", // claim.workerId
  "0000000574306b336e", // claim.token
  "0000019ad4a2cb30", // claim.expiresAtMillis
  "0000000000000007", // generation 7
  "01", // output present
  "00000058", // output length
  "0000000c4f424a4543545f534c4943450001000000424e524f310000002177616c2f76312f30302f303030303030303030303030303030303034322d6162630200000000000010000000000000000141e306928300000002", // output (STREAM_GENERATION_OBJECT slice)
].join("");

const REGISTRATION_KEY = streamRegistrationKey("unit", "s-orders");
const MATERIALIZATION_KEY = streamMaterializationKey("unit", "s-orders");

describe("materialization keys", () => {
  test("layout", () => {
    expect(REGISTRATION_KEY).toBe(
      `/nereus/clusters/unit/materialization/v1/stream-registry/${registryShard("s-orders")}/s-orders`,
    );
    expect(registryShard("s-orders")).toMatch(/^[0-6]\d$/);
    expect(Number(registryShard("s-orders"))).toBeLessThan(64);
    expect(parseStreamRegistrationKey(REGISTRATION_KEY)).toEqual({ cluster: "unit", streamId: "s-orders" });
    expect(MATERIALIZATION_KEY).toBe("/nereus/clusters/unit/streams/s-orders/materialization/v1/state");
  });
});

describe("streamRegistrationCodec", () => {
  test("golden bytes", () => {
    expect(toHex(streamRegistrationCodec.encode(REGISTRATION))).toBe(GOLDEN_REGISTRATION);
    expect(streamRegistrationCodec.decode(fromHex(GOLDEN_REGISTRATION), REGISTRATION_KEY)).toEqual(REGISTRATION);
  });

  test("every truncation, bit flip and trailing byte is rejected; so is a foreign key", () => {
    expectCorruptionRejected(fromHex(GOLDEN_REGISTRATION), (bytes) =>
      streamRegistrationCodec.decode(bytes, REGISTRATION_KEY),
    );
    invariantViolation(() =>
      streamRegistrationCodec.decode(fromHex(GOLDEN_REGISTRATION), streamRegistrationKey("unit", "s-other")),
    );
  });
});

describe("streamMaterializationCodec", () => {
  test("golden bytes", () => {
    expect(toHex(streamMaterializationCodec.encode(MATERIALIZATION))).toBe(GOLDEN_MATERIALIZATION);
    expect(streamMaterializationCodec.decode(fromHex(GOLDEN_MATERIALIZATION), MATERIALIZATION_KEY)).toEqual(
      MATERIALIZATION,
    );
  });

  test("every truncation, bit flip and trailing byte is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN_MATERIALIZATION), (bytes) =>
      streamMaterializationCodec.decode(bytes, MATERIALIZATION_KEY),
    );
  });

  test("encode refuses records that break the task lifecycle rules", () => {
    const bad: StreamMaterialization[] = [
      { ...MATERIALIZATION, nextGeneration: 0 },
      { ...MATERIALIZATION, task: { ...TASK, claim: undefined } },
      { ...MATERIALIZATION, task: { ...TASK, state: "PUBLISHED" } },
      { ...MATERIALIZATION, task: { ...TASK, generation: 8 } },
      { ...MATERIALIZATION, task: { ...TASK, output: undefined } },
      { ...MATERIALIZATION, task: { ...TASK, offsetEnd: 100 } },
      { ...MATERIALIZATION, task: { ...TASK, sourceDigest: "xyz" } },
      { ...MATERIALIZATION, task: { ...TASK, attempt: 0 } },
    ];
    for (const record of bad) invariantViolation(() => streamMaterializationCodec.encode(record));
  });

  test("property: round trip through every task state", () => {
    const arbitrary = fc
      .record({
        materializedEnd: fc.nat({ max: 2 ** 40 }),
        nextGeneration: fc.integer({ min: 2, max: 2 ** 40 }),
        state: fc.constantFrom("CLAIMED", "PREPARED", "PUBLISHED", "ABANDONED") as fc.Arbitrary<
          MaterializationTask["state"]
        >,
        withTask: fc.boolean(),
      })
      .map(({ materializedEnd, nextGeneration, state, withTask }): StreamMaterialization => {
        const active = state === "CLAIMED" || state === "PREPARED";
        const allocated = state === "PREPARED" || state === "PUBLISHED";
        return {
          ...MATERIALIZATION,
          materializedEnd,
          nextGeneration,
          task: withTask
            ? {
                ...TASK,
                state,
                claim: active ? TASK.claim : undefined,
                generation: allocated ? nextGeneration - 1 : 0,
                output: allocated ? TASK.output : undefined,
              }
            : undefined,
        };
      });
    fc.assert(
      fc.property(arbitrary, (record) => {
        expect(
          streamMaterializationCodec.decode(streamMaterializationCodec.encode(record), MATERIALIZATION_KEY),
        ).toEqual(record);
      }),
    );
  });
});
