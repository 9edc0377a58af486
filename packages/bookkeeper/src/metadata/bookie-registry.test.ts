import { describe, expect, it } from "vitest";
import { ProtoWriter } from "../protobuf/proto-writer.js";
import { parseBookieId, parseBookieServiceInfo } from "./bookie-registry.js";

describe("bookie addresses", () => {
  it("parses host:port ids, IPv6 in brackets", () => {
    expect(parseBookieId("127.0.0.1:3181")).toEqual({ host: "127.0.0.1", port: 3181 });
    expect(parseBookieId("[::1]:3181")).toEqual({ host: "::1", port: 3181 });
    expect(parseBookieId("bookie-1")).toBeUndefined();
    expect(parseBookieId("h:0")).toBeUndefined();
  });

  it("takes the bookie-rpc endpoint of a BookieServiceInfoFormat payload", () => {
    const endpoint = (protocol: string, port: number) =>
      new ProtoWriter().string(1, protocol).int32(2, port).string(3, "10.1.2.3").string(4, protocol);
    const payload = new ProtoWriter()
      .message(6, endpoint("http", 8080))
      .message(6, endpoint("bookie-rpc", 3181))
      .message(7, new ProtoWriter().string(1, "autorecovery.enabled").string(2, "false"))
      .finish();
    expect(parseBookieServiceInfo(payload)).toEqual({ host: "10.1.2.3", port: 3181 });
    expect(parseBookieServiceInfo(new Uint8Array(0))).toBeUndefined();
  });
});
