import { describe, expect, test } from "vitest";
import { peerHost } from "./peer-host.js";

describe("peerHost", () => {
  test("strips the port of IPv4 and bracketed IPv6 peers, unmaps IPv4-mapped addresses", () => {
    expect(peerHost("127.0.0.1:53122")).toBe("127.0.0.1");
    expect(peerHost("[::1]:53122")).toBe("::1");
    expect(peerHost("[::ffff:10.1.2.3]:9092")).toBe("10.1.2.3");
    expect(peerHost("::ffff:10.1.2.3")).toBe("10.1.2.3");
    expect(peerHost("fe80::1")).toBe("fe80::1");
    expect(peerHost("10.0.0.1")).toBe("10.0.0.1");
  });
});
