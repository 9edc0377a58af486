// The per-API golden harness. For every version of a message it checks that the codec's encoding of a full
// sample equals the bytes composed independently from the spec grammar (test/wire.ts), that decoding those
// bytes yields the sample projected onto the version, and that random values of the version round-trip. The
// golden bytes of all versions are frozen in test/fixtures/golden/<file>.hex.
import { fromHex, toHex } from "@nereus/core";
import fc from "fast-check";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { MessageSchema } from "../src/protocol/schema/message-schema.js";
import type { FieldShape } from "../src/protocol/schema/struct-schema.js";
import { messageArbitrary, projectToVersion } from "./schema-arbitrary.js";

/** One message's golden definition. */
export interface GoldenMessage {
  readonly schema: MessageSchema<FieldShape>;
  /** Versions to check (normally the advertised range). */
  readonly versions: readonly number[];
  /** A value with a non-default entry in every field of every version. */
  readonly sample: unknown;
  /** The sample's bytes in `version`, composed by hand from the spec grammar. */
  readonly wire: (version: number) => string;
}

/** Inclusive integer range helper. */
export function versionsFrom(min: number, max: number): number[] {
  return Array.from({ length: max - min + 1 }, (_, index) => min + index);
}

const FIXTURE_DIR = path.resolve(import.meta.dirname, "fixtures", "golden");

/** Registers golden, decode and round-trip tests for `messages`, freezing their bytes in `<fixture>.hex`. */
export function describeGolden(fixture: string, messages: readonly GoldenMessage[], runsPerVersion = 40): void {
  for (const message of messages) {
    const { schema } = message;
    describe(schema.name, () => {
      it.each(message.versions)("v%i encodes the sample to the bytes composed from the grammar", (version) => {
        expect(toHex(schema.encode(message.sample as never, version))).toBe(message.wire(version));
      });

      it.each(message.versions)("v%i decodes the golden bytes to the sample projected onto the version", (version) => {
        const decoded = schema.decode(fromHex(message.wire(version)), version);
        expect(decoded).toEqual(projectToVersion(schema, message.sample, version));
      });

      it.each(message.versions)("v%i round-trips random values", (version) => {
        fc.assert(
          fc.property(messageArbitrary(schema, version), (value) => {
            const encoded = schema.encode(value as never, version);
            const decoded = schema.decode(encoded, version);
            expect(decoded).toEqual(value);
            expect(toHex(schema.encode(decoded, version))).toBe(toHex(encoded));
          }),
          { numRuns: runsPerVersion },
        );
      });
    });
  }

  it(`golden bytes match the frozen fixture test/fixtures/golden/${fixture}.hex`, async () => {
    const lines: string[] = [];
    for (const message of messages) {
      for (const version of message.versions)
        lines.push(`${message.schema.name} v${String(version)} ${message.wire(version)}`);
    }
    await expect(`${lines.join("\n")}\n`).toMatchFileSnapshot(path.join(FIXTURE_DIR, `${fixture}.hex`));
  });
}
