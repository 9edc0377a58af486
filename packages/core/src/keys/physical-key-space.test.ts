import { describe, expect, it } from "vitest";
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import { PhysicalKeySpace } from "./physical-key-space.js";

const HASH = "0a".padEnd(64, "f");
const space = new PhysicalKeySpace("physical-things", "thing hash");

function decodeError(run: () => unknown): NereusError {
  try {
    run();
  } catch (error) {
    if (NereusError.hasCode(error, ErrorCode.DECODE_ERROR)) return error;
    throw error;
  }
  throw new Error("expected DECODE_ERROR");
}

describe("PhysicalKeySpace", () => {
  it("builds sharded root and target keys under the cluster prefix", () => {
    expect(space.prefix("c1")).toBe("/nereus/clusters/c1/physical-things/v1/");
    expect(space.rootKey("c1", HASH)).toBe(`/nereus/clusters/c1/physical-things/v1/010/roots/${HASH}`);
    expect(space.targetPrefix("c1", "things", HASH)).toBe(`/nereus/clusters/c1/physical-things/v1/010/things/${HASH}/`);
  });

  it("parses a root key back and splits a longer key after the version", () => {
    expect(space.parseRootKey(space.rootKey("a/b", HASH), "a thing root")).toEqual({ cluster: "a/b", hash: HASH });
    expect(space.split(`${space.targetPrefix("c1", "things", HASH)}x`, "a thing", 4)).toEqual({
      cluster: "c1",
      rest: ["010", "things", HASH, "x"],
    });
  });

  it("refuses keys the builders could not have produced, naming the kind", () => {
    expect(
      decodeError(() => space.parseRootKey(space.rootKey("c1", HASH).replace("/010/", "/011/"), "a thing root"))
        .message,
    ).toContain("is not a thing root key");
    expect(
      decodeError(() => space.parseRootKey(`/nereus/clusters/c1/other/v1/010/roots/${HASH}`, "a thing root")).message,
    ).toContain("physical-things/v1");
    expect(
      decodeError(() => space.split("/nereus/clusters/c1/physical-things/v1/010", "a thing", 4)).message,
    ).toContain("4 more segments");
  });
});
