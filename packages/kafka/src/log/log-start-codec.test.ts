import { fromHex, toHex } from "@nereus/core";
import { describe, expect, test } from "vitest";
import { expectCorruptionRejected, violation } from "../../test/record-codec-checks.js";
import { KafkaKeyspace } from "../topics/kafka-keys.js";
import { type LogStartRecord, logStartCodec } from "./log-start-codec.js";

const keyspace = new KafkaKeyspace("test");
const codec = logStartCodec(keyspace);
const STREAM = `s-${"a".repeat(52)}`;
const KEY = keyspace.logStartKey(STREAM);
const FIXTURE: LogStartRecord = { streamId: STREAM, logStartOffset: 4096, bytesBefore: 1_234_567 };

// Composed independently (a Python script following the documented layouts: NRM1 envelope, then the payload), frozen.
const GOLDEN = [
  "4e524d31", // NRM1
  "0000000d4b61666b614c6f675374617274", // recordType "KafkaLogStart"
  "0001" + "0001" + "01", // schema 1, min reader 1, canonical binary v1
  "0000004a" + "d8f4ec98", // payload length 74, CRC32C
  `00000036732d${"61".repeat(52)}`, // streamId
  "0000000000001000", // logStartOffset 4096
  "000000000012d687", // bytesBefore 1,234,567
].join("");

describe("logStartCodec", () => {
  test("golden bytes", () => {
    expect(toHex(codec.encode(FIXTURE))).toBe(GOLDEN);
    expect(codec.decode(fromHex(GOLDEN), KEY)).toEqual(FIXTURE);
  });

  test("every truncation and bit flip is rejected", () => {
    expectCorruptionRejected(fromHex(GOLDEN), (bytes) => codec.decode(bytes, KEY));
  });

  test("refuses another stream's key and negative or fractional numbers", () => {
    expect(
      violation(() => codec.decode(fromHex(GOLDEN), keyspace.logStartKey(`s-${"c".repeat(52)}`))).message,
    ).toContain("does not match the key's stream");
    violation(() => codec.decode(fromHex(GOLDEN), keyspace.producerStateKey(STREAM)));
    violation(() => codec.encode({ ...FIXTURE, bytesBefore: -1 }));
    violation(() => codec.encode({ ...FIXTURE, logStartOffset: 1.5 }));
  });
});
