import { describe, expect, it } from "vitest";
import { expectInvalidArgument } from "../../../test/hex.js";
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
import { encodeCommandFrame, encodePayloadFrame, encodePayloadFrameHead } from "./encode-frame.js";
import { encodeMessageEntry } from "./message-entry.js";

describe("frame encoding", () => {
  it("encodes simple command frames", () => {
    expect(encodeCommandFrame(PING)).toEqual(PING_FRAME);
    expect(encodeCommandFrame(CONNECT)).toEqual(CONNECT_FRAME);
  });

  it("builds message entries with their checksum", () => {
    expect(encodeMessageEntry(ENTRY_METADATA, ENTRY_PAYLOAD)).toEqual(ENTRY);
  });

  it("encodes payload frames, with broker entry metadata when asked", () => {
    expect(encodePayloadFrame(SEND, ENTRY)).toEqual(SEND_FRAME);
    expect(encodePayloadFrame(MESSAGE, ENTRY, { brokerEntryMetadata: MESSAGE_BROKER_METADATA })).toEqual(MESSAGE_FRAME);
  });

  it("gives the head of a payload frame so the stored entry can be written after it uncopied", () => {
    const head = encodePayloadFrameHead(MESSAGE, ENTRY.length, { brokerEntryMetadata: MESSAGE_BROKER_METADATA });
    expect(new Uint8Array([...head, ...ENTRY])).toEqual(MESSAGE_FRAME);
    expectInvalidArgument(() => encodePayloadFrameHead(MESSAGE, -1));
    expectInvalidArgument(() => encodePayloadFrameHead(MESSAGE, 2 ** 32));
  });
});
