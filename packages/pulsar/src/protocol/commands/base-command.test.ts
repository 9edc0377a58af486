import { BinaryWriter } from "@bufbuild/protobuf/wire";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectDecodeError, expectInvalidArgument, hex } from "../../../test/hex.js";
import { arbitraryOf } from "../../../test/proto-arbitrary.js";
import { AckType } from "./ack.js";
import { decodeBaseCommand, writeBaseCommand } from "./base-command.js";
import { COMMAND_CODECS, type PulsarCommand } from "./command-codecs.js";
import { CommandType, type CommandTypeName } from "./command-type.js";
import { ServerError } from "../messages/server-error.js";
import type { MessageSchema } from "../wire/message-schema.js";

function encode(command: PulsarCommand): Uint8Array {
  const writer = new BinaryWriter();
  writeBaseCommand(writer, command);
  return writer.finish();
}

/** Golden BaseCommands, derived by hand from the protobuf wire rules (tag = field << 3 | wire type). */
const GOLDEN: readonly { readonly command: PulsarCommand; readonly bytes: string }[] = [
  // type PING (08 12), body field 18 as an empty message (92 01 00).
  { command: { type: "PING", body: {} }, bytes: "0812 920100" },
  // type CONNECT (08 02), body field 2 (12) of 6 bytes: clientVersion "ts" (0a 02 7473), protocolVersion 21 (20 15).
  {
    command: { type: "CONNECT", body: { clientVersion: "ts", protocolVersion: 21 } },
    bytes: "0802 1206 0a027473 2015",
  },
  // type FLOW (08 0b), body field 11 (5a) of 5 bytes: consumerId 1 (08 01), messagePermits 1000 (10 e807).
  { command: { type: "FLOW", body: { consumerId: 1n, messagePermits: 1000 } }, bytes: "080b 5a05 0801 10e807" },
  // type SEND_ERROR (08 08), body field 8 (42) of 11 bytes: producerId 1, sequenceId 2, error 9, message "bad".
  {
    command: {
      type: "SEND_ERROR",
      body: { producerId: 1n, sequenceId: 2n, error: ServerError.ChecksumError, message: "bad" },
    },
    bytes: "0808 420b 0801 1002 1809 2203626164",
  },
  // type ACK (08 0a), body field 10 (52) of 35 bytes: consumerId 7, ackType Individual, one MessageIdData (1a 1b):
  // ledgerId 2^62 (nine-byte varint), entryId 5, batchIndex 1, ackSet [-2] (ten-byte varint), batchSize 3; then
  // requestId 9 (40 09).
  {
    command: {
      type: "ACK",
      body: {
        consumerId: 7n,
        ackType: AckType.Individual,
        messageId: [{ ledgerId: 1n << 62n, entryId: 5n, batchIndex: 1, ackSet: [-2n], batchSize: 3 }],
        requestId: 9n,
      },
    },
    bytes: "080a 5223 0807 1000 1a1b  08 808080808080808040  1005  2001  28 feffffffffffffffff01  3003  4009",
  },
  // type SEND_RECEIPT (08 07), body field 7 (3a) of 21 bytes: producerId 1, sequenceId 0, messageId (1a 0f) with
  // ledgerId 1, entryId 2, partition -1 (ten-byte varint, as protobuf sign-extends negative int32).
  {
    command: {
      type: "SEND_RECEIPT",
      body: { producerId: 1n, sequenceId: 0n, messageId: { ledgerId: 1n, entryId: 2n, partition: -1 } },
    },
    bytes: "0807 3a15 0801 1000 1a0f 0801 1002 18ffffffffffffffffff01",
  },
];

describe("BaseCommand", () => {
  it("encodes and decodes the golden commands", () => {
    for (const { command, bytes } of GOLDEN) {
      expect(encode(command), command.type).toEqual(hex(bytes));
      expect(decodeBaseCommand(hex(bytes))).toEqual(command);
    }
  });

  it("gives every modelled type a codec whose field number is the type code", () => {
    expect(Object.keys(COMMAND_CODECS).sort()).toEqual(Object.keys(CommandType).sort());
  });

  it("round-trips random commands of every modelled type", () => {
    const names = Object.keys(COMMAND_CODECS) as CommandTypeName[];
    const command = fc
      .constantFrom(...names)
      .chain((type) =>
        arbitraryOf(COMMAND_CODECS[type] as MessageSchema<object>).map((body) => ({ type, body }) as PulsarCommand),
      );
    fc.assert(
      fc.property(command, (value) => {
        const bytes = encode(value);
        const decoded = decodeBaseCommand(bytes);
        expect(decoded).toEqual(value);
        expect(encode(decoded as PulsarCommand)).toEqual(bytes);
      }),
      { numRuns: 1000 },
    );
  });

  it("accepts the type after the body and skips other bodies and unknown fields", () => {
    // FLOW body, an unknown field 99 (varint), a SEND body (field 6) that does not belong, then type FLOW.
    const bytes = hex("5a05 0801 10e807  9806 01  3202 0801  080b");
    expect(decodeBaseCommand(bytes)).toEqual({ type: "FLOW", body: { consumerId: 1n, messagePermits: 1000 } });
  });

  it("decodes types it does not model as unsupported, without decoding their body", () => {
    expect(decodeBaseCommand(hex("0832 9203 03 ffffff"))).toEqual({ type: "UNSUPPORTED", typeCode: 50 });
    expect(decodeBaseCommand(hex("08e807"))).toEqual({ type: "UNSUPPORTED", typeCode: 1000 });
  });

  it("fails on a missing type, a missing body, a malformed body and malformed protobuf", () => {
    expect(expectDecodeError(() => decodeBaseCommand(hex("920100"))).message).toContain("type (number 1) is missing");
    expect(expectDecodeError(() => decodeBaseCommand(hex("0812"), 8)).message).toContain(
      "BaseCommand at byte 8: PING command without its body (field 18)",
    );
    // FLOW without its required messagePermits: the error names the body message and where it starts.
    expect(expectDecodeError(() => decodeBaseCommand(hex("080b 5a02 0801"), 8)).message).toContain(
      "CommandFlow at byte 12: required field messagePermits",
    );
    expect(expectDecodeError(() => decodeBaseCommand(hex("080b 5a09 08"))).message).toContain("premature EOF");
    expectDecodeError(() => decodeBaseCommand(hex("00")));
  });

  it("refuses to encode a type it does not model or a body a field cannot carry", () => {
    expectInvalidArgument(() => encode({ type: "NEW_TXN", body: {} } as unknown as PulsarCommand));
    expectInvalidArgument(() => encode({ type: "FLOW", body: { consumerId: 1n, messagePermits: -1 } }));
  });
});
