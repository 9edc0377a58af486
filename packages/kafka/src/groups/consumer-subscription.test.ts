import { describe, expect, test } from "vitest";
import { subscribedTopics } from "./consumer-subscription.js";

/** ConsumerProtocolSubscription bytes: version, topics, then `rest` (user data and later fields, not read). */
function subscription(
  version: number,
  topics: readonly string[],
  rest: readonly number[] = [0xff, 0xff, 0xff, 0xff],
): Uint8Array {
  const bytes: number[] = [version >> 8, version & 0xff, 0, 0, 0, topics.length];
  for (const topic of topics) {
    const encoded = new TextEncoder().encode(topic);
    bytes.push(encoded.length >> 8, encoded.length & 0xff, ...encoded);
  }
  return new Uint8Array([...bytes, ...rest]);
}

describe("subscribedTopics", () => {
  test("reads the topics of every version's layout and ignores what follows them", () => {
    expect(subscribedTopics(subscription(0, ["orders", "payments"]))).toEqual(["orders", "payments"]);
    expect(
      subscribedTopics(subscription(3, ["événements"], [0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff])),
    ).toEqual(["événements"]);
    expect(subscribedTopics(subscription(1, []))).toEqual([]);
  });

  test("unreadable metadata is undefined: truncated, negative counts or lengths, bad UTF-8", () => {
    const good = subscription(1, ["orders"]);
    for (let length = 0; length < 14; length += 1) expect(subscribedTopics(good.subarray(0, length))).toBeUndefined();
    expect(subscribedTopics(new Uint8Array([0, 1, 0xff, 0xff, 0xff, 0xff]))).toBeUndefined();
    expect(subscribedTopics(new Uint8Array([0xff, 0xff, 0, 0, 0, 0]))).toBeUndefined();
    expect(subscribedTopics(new Uint8Array([0, 1, 0, 0, 0, 1, 0xff, 0xff]))).toBeUndefined();
    expect(subscribedTopics(new Uint8Array([0, 1, 0, 0, 0, 1, 0, 1, 0xc3]))).toBeUndefined();
  });
});
