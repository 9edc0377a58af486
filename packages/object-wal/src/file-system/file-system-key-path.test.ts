import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasControlCharacter } from "../object-keys/assert-object-key.js";
import { OBJECT_FILE_SUFFIX, fileSystemKeyPath } from "./file-system-key-path.js";

/** Segments the key rules accept: non-empty, not "." / "..", no "/", no control characters, short enough. */
const segment = fc
  .string({ unit: "grapheme", minLength: 1, maxLength: 20 })
  .filter((value) => !value.includes("/") && value !== "." && value !== ".." && !hasControlCharacter(value));

const encodeSegment = (value: string): string =>
  fileSystemKeyPath.objectPath(value).slice(0, -OBJECT_FILE_SUFFIX.length);

describe("fileSystemKeyPath", () => {
  it("round-trips every segment and only ever produces safe, suffix-free path components", () => {
    fc.assert(
      fc.property(segment, (value) => {
        const encoded = encodeSegment(value);
        expect(encoded).toMatch(/^[A-Za-z0-9_%-][A-Za-z0-9_.%-]*$/);
        expect(fileSystemKeyPath.decodeSegment(encoded)).toBe(value);
      }),
    );
  });

  it("maps different keys to different paths with one component per segment", () => {
    fc.assert(
      fc.property(
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        fc.array(segment, { minLength: 1, maxLength: 4 }),
        (left, right) => {
          const leftPath = fileSystemKeyPath.objectPath(left.join("/"));
          expect(leftPath.split(path.sep)).toHaveLength(left.length);
          expect(path.normalize(leftPath)).toBe(leftPath);
          if (left.join("/") !== right.join("/"))
            expect(leftPath).not.toBe(fileSystemKeyPath.objectPath(right.join("/")));
        },
      ),
    );
  });

  it("encodes the characters that could change a path's meaning", () => {
    expect(fileSystemKeyPath.objectPath(".a/b.c/%/~")).toBe(
      path.join("%2Ea", "b.c", "%25", `%7E${OBJECT_FILE_SUFFIX}`),
    );
    expect(fileSystemKeyPath.objectPath("\u00e9 \\")).toBe(`%C3%A9%20%5C${OBJECT_FILE_SUFFIX}`);
  });

  it("accepts only canonical names when decoding", () => {
    for (const name of [
      "%41",
      "%2e",
      "%2E",
      "%2E.",
      ".a",
      "a~",
      "%",
      "%4",
      "%ZZ",
      "%C3",
      "a/b",
      "",
      "\u00e9",
      "%00",
      "a%7F",
    ]) {
      expect(fileSystemKeyPath.decodeSegment(name)).toBeUndefined();
    }
    expect(fileSystemKeyPath.decodeSegment("%2Ea")).toBe(".a");
    expect(fileSystemKeyPath.decodeSegment("%2E..")).toBe("...");
    expect(fileSystemKeyPath.decodeSegment("%2E%2E%2E")).toBeUndefined();
  });

  it("builds listing folders and refuses folders no key can have", () => {
    expect(fileSystemKeyPath.directoryPath([])).toBe("");
    expect(fileSystemKeyPath.directoryPath(["a", ".b"])).toBe(path.join("a", "%2Eb"));
    expect(fileSystemKeyPath.directoryPath(["a", ".."])).toBeUndefined();
    expect(fileSystemKeyPath.directoryPath(["", "a"])).toBeUndefined();
  });
});
