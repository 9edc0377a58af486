import { describe, expect, it } from "vitest";
import * as kafka from "./index.js";
import * as protocol from "./protocol/index.js";

describe("@nereus/kafka", () => {
  it("exposes the codec as the protocol namespace, the same module as @nereus/kafka/protocol", () => {
    expect(Object.keys(kafka)).toContain("protocol");
    expect(kafka.protocol.decodeRequest).toBe(protocol.decodeRequest);
    expect(
      Object.keys(protocol.SUPPORTED_APIS)
        .map(Number)
        .sort((left, right) => left - right),
    ).toEqual([
      0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 29, 30, 31, 32, 33, 35, 36, 37, 42, 44, 47,
      50, 51,
    ]);
  });

  it("exports the consumer-group coordinator", () => {
    expect(typeof kafka.createGroupCoordinator).toBe("function");
  });

  it("names an API key for every supported API", () => {
    const names = new Map<number, string>(Object.entries(protocol.ApiKey).map(([name, key]) => [key, name]));
    for (const api of Object.values(protocol.SUPPORTED_APIS)) expect(names.get(api.apiKey)).toBe(api.name);
  });
});
