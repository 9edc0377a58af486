import { ErrorCode, NereusError, crc32c } from "@nereus/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectDecodeError, hex } from "../../../test/hex.js";
import {
  CONNECT,
  CONNECT_FRAME,
  ENTRY,
  ENTRY_METADATA,
  ENTRY_PAYLOAD,
  MESSAGE,
  MESSAGE_BROKER_METADATA,
  MESSAGE_FRAME,
  PING,
  PING_FRAME,
  SEND,
  SEND_FRAME,
} from "../../../test/golden-frames.js";
import { arbitraryOf } from "../../../test/proto-arbitrary.js";
import { readBatch } from "../metadata/batch-payload.js";
import { MessageMetadataCodec, decodeMessageMetadata } from "../metadata/message-metadata.js";
import { BrokerEntryMetadataCodec } from "../metadata/broker-entry-metadata.js";
import { CommandMessageCodec, CommandFlowCodec } from "../commands/dispatch.js";
import { CommandSendCodec } from "../commands/send.js";
import type { PulsarCommand } from "../commands/command-codecs.js";
import { decodeFrame, type FramePayload } from "./decode-frame.js";
import { encodeCommandFrame, encodePayloadFrame } from "./encode-frame.js";
import { PulsarFrameDecoder } from "./frame-decoder.js";
import { encodeMessageEntry } from "./message-entry.js";

/** The frame as the frame decoder returns it: without its totalSize field. */
const body = (frame: Uint8Array): Uint8Array => frame.slice(4);

function verified(payload: FramePayload | undefined): Extract<FramePayload, { checksumMatches: true }> {
  if (payload?.checksumMatches !== true) throw new Error("expected a verified payload");
  return payload;
}

/** `frame` with the u32 at `at` (counted on the wire, totalSize field = byte 0) replaced. */
function withUint32(frame: Uint8Array, at: number, value: number): Uint8Array {
  const copy = frame.slice();
  new DataView(copy.buffer).setUint32(at, value);
  return copy;
}

const SEND_ENTRY_AT = 4 + 4 + 8;

describe("decodeFrame", () => {
  it("decodes the golden simple frames", () => {
    expect(decodeFrame(body(PING_FRAME))).toEqual({ command: PING });
    expect(decodeFrame(body(CONNECT_FRAME))).toEqual({ command: CONNECT });
  });

  it("decodes a SEND frame: command, verified checksum, metadata and payload as views", () => {
    const frame = body(SEND_FRAME);
    const decoded = decodeFrame(frame);
    expect(decoded.command).toEqual(SEND);
    const payload = verified(decoded.payload);
    expect(payload.checksum).toBe(0x16f2f2f7);
    expect(payload.entry).toEqual(ENTRY);
    expect(payload.entry.buffer).toBe(frame.buffer);
    expect(payload.brokerEntryMetadata).toBeUndefined();
    expect(decodeMessageMetadata(payload.metadataBytes, payload.metadataOffset)).toEqual(ENTRY_METADATA);
    expect(payload.metadataOffset).toBe(SEND_ENTRY_AT + 10);
    expect(payload.payload).toEqual(ENTRY_PAYLOAD);
    expect(payload.payloadOffset).toBe(SEND_ENTRY_AT + 18);
  });

  it("decodes a MESSAGE frame with broker entry metadata in front of the entry", () => {
    const decoded = decodeFrame(body(MESSAGE_FRAME));
    expect(decoded.command).toEqual(MESSAGE);
    const payload = verified(decoded.payload);
    expect(payload.brokerEntryMetadata).toEqual(MESSAGE_BROKER_METADATA);
    expect(payload.entry).toEqual(ENTRY);
  });

  it("reports a checksum mismatch as a value, with the command intact for a SEND_ERROR", () => {
    const corrupt = body(SEND_FRAME);
    corrupt.set([0x68], corrupt.length - 1); // "hi" becomes "hh"
    const decoded = decodeFrame(corrupt);
    expect(decoded.command).toEqual(SEND);
    expect(decoded.payload).toEqual({
      checksumMatches: false,
      checksum: 0x16f2f2f7,
      computedChecksum: crc32c(hex("00000008 0a0170 1000 18e807 6868")),
      entry: corrupt.subarray(SEND_ENTRY_AT - 4),
    });
    // A flipped metadata size is covered by the checksum: a mismatch, not a size error.
    const flippedSize = decodeFrame(body(withUint32(SEND_FRAME, SEND_ENTRY_AT + 6, 0x7fff_ffff)));
    expect(flippedSize.payload?.checksumMatches).toBe(false);
  });

  it("rejects inconsistent sizes, truncated headers and bad magic with the byte offset on the wire", () => {
    expect(expectDecodeError(() => decodeFrame(body(withUint32(SEND_FRAME, 4, 29)))).message).toBe(
      "Pulsar frame at byte 4: commandSize 29 exceeds the 28 bytes after it",
    );
    expectDecodeError(() => decodeFrame(body(withUint32(SEND_FRAME, 4, 4))));
    expect(expectDecodeError(() => decodeFrame(hex("0000"))).message).toContain("cannot hold the commandSize");
    expect(expectDecodeError(() => decodeFrame(body(SEND_FRAME).subarray(0, 13))).message).toBe(
      "Pulsar payload at byte 16: 1 byte(s) cannot hold a magic number",
    );
    expect(expectDecodeError(() => decodeFrame(body(SEND_FRAME).subarray(0, 20))).message).toBe(
      "Pulsar message entry at byte 16: 8 byte(s) cannot hold magic, checksum and metadata size",
    );
    const badMagic = body(SEND_FRAME);
    badMagic[SEND_ENTRY_AT - 4 + 1] = 0x03;
    expect(expectDecodeError(() => decodeFrame(badMagic)).message).toBe(
      "Pulsar message entry at byte 16: magic 0x0e03 is not 0x0e01",
    );
  });

  it("rejects a metadata size beyond the entry even when the checksum was recomputed to match", () => {
    const frame = withUint32(SEND_FRAME, SEND_ENTRY_AT + 6, 11);
    const entry = frame.subarray(SEND_ENTRY_AT);
    new DataView(frame.buffer).setUint32(SEND_ENTRY_AT + 2, crc32c(entry.subarray(6)));
    expect(expectDecodeError(() => decodeFrame(body(frame))).message).toBe(
      "Pulsar message entry at byte 22: metadataSize 11 exceeds the 10 bytes left",
    );
  });

  it("rejects truncated or oversized broker entry metadata", () => {
    // On the wire: totalSize (4), commandSize (4), the 12-byte command, then the broker entry metadata at byte 20.
    const bemAt = 20;
    expect(expectDecodeError(() => decodeFrame(body(MESSAGE_FRAME).subarray(0, bemAt + 4 - 4))).message).toBe(
      "Pulsar broker entry metadata at byte 20: truncated before its size",
    );
    expect(expectDecodeError(() => decodeFrame(body(withUint32(MESSAGE_FRAME, bemAt + 2, 99)))).message).toBe(
      "Pulsar broker entry metadata at byte 22: size 99 exceeds the 24 bytes left",
    );
  });

  it("either decodes or raises DECODE_ERROR for every truncation of a payload frame", () => {
    const frame = body(MESSAGE_FRAME);
    for (let length = 0; length < frame.length; length += 1) {
      try {
        const decoded = decodeFrame(frame.subarray(0, length));
        expect(decoded.payload === undefined || !decoded.payload.checksumMatches, `length ${String(length)}`).toBe(
          true,
        );
      } catch (error) {
        expect(NereusError.hasCode(error, ErrorCode.DECODE_ERROR), String(error)).toBe(true);
      }
    }
  });

  it("never fails with anything but DECODE_ERROR on mutated frames, down to metadata and batches", () => {
    const frames = [PING_FRAME, SEND_FRAME, MESSAGE_FRAME, CONNECT_FRAME].map(body);
    const mutation = fc.record({
      frame: fc.constantFrom(...frames),
      edits: fc.array(
        fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom("set", "insert", "delete")),
        {
          minLength: 1,
          maxLength: 4,
        },
      ),
    });
    fc.assert(
      fc.property(mutation, ({ frame, edits }) => {
        const bytes = [...frame];
        for (const [position, value, kind] of edits) {
          const at = position % (bytes.length + 1);
          if (kind === "set" && at < bytes.length) bytes[at] = value;
          else if (kind === "insert") bytes.splice(at, 0, value);
          else bytes.splice(at, 1);
        }
        try {
          const decoded = decodeFrame(new Uint8Array(bytes));
          const payload = decoded.payload;
          if (payload?.checksumMatches === true) {
            const metadata = decodeMessageMetadata(payload.metadataBytes, payload.metadataOffset);
            readBatch(metadata, payload.payload, payload.payloadOffset);
          }
        } catch (error) {
          expect(NereusError.hasCode(error, ErrorCode.DECODE_ERROR), String(error)).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("round-trips random payload frames through the stream decoder", () => {
    const command = fc.oneof(
      arbitraryOf(CommandSendCodec).map((sendBody): PulsarCommand => ({ type: "SEND", body: sendBody })),
      arbitraryOf(CommandMessageCodec).map((messageBody): PulsarCommand => ({ type: "MESSAGE", body: messageBody })),
      arbitraryOf(CommandFlowCodec).map((flowBody): PulsarCommand => ({ type: "FLOW", body: flowBody })),
    );
    const frameCase = fc.record({
      command,
      metadata: arbitraryOf(MessageMetadataCodec, { maxDepth: 1 }),
      payload: fc.uint8Array({ maxLength: 64 }),
      brokerEntryMetadata: fc.option(arbitraryOf(BrokerEntryMetadataCodec), { nil: undefined }),
      chunkSize: fc.integer({ min: 1, max: 64 }),
    });
    fc.assert(
      fc.property(frameCase, ({ command: sent, metadata, payload, brokerEntryMetadata, chunkSize }) => {
        const entry = encodeMessageEntry(metadata, payload);
        const wire =
          sent.type === "FLOW"
            ? encodeCommandFrame(sent)
            : encodePayloadFrame(sent, entry, brokerEntryMetadata === undefined ? {} : { brokerEntryMetadata });
        const decoder = new PulsarFrameDecoder();
        const frames: Uint8Array[] = [];
        for (let at = 0; at < wire.length; at += chunkSize)
          frames.push(...decoder.push(wire.subarray(at, at + chunkSize)));
        decoder.end();
        expect(frames).toHaveLength(1);
        const decoded = decodeFrame(frames[0] ?? new Uint8Array(0));
        expect(decoded.command).toEqual(sent);
        if (sent.type === "FLOW") {
          expect(decoded.payload).toBeUndefined();
          return;
        }
        const parts = verified(decoded.payload);
        expect(parts.entry).toEqual(entry);
        expect(parts.brokerEntryMetadata).toEqual(brokerEntryMetadata);
        expect(decodeMessageMetadata(parts.metadataBytes)).toEqual(metadata);
        expect(parts.payload).toEqual(payload);
      }),
      { numRuns: 300 },
    );
  });
});
