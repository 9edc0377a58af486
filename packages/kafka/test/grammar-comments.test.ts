// Every message codec carries its wire grammar as the comment right above it; this test regenerates the grammar
// from the codec and fails when the comment is stale (fix: node --conditions=@nereus/source --import tsx
// scripts/update-grammar-comments.ts).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { describeSchema } from "../src/protocol/schema/describe-schema.js";
import { MessageSchema } from "../src/protocol/schema/message-schema.js";
import { SUPPORTED_APIS } from "../src/protocol/supported-apis.js";
import { grammarComment, listApiSourceFiles } from "./grammar-comment.js";

const root = path.resolve(import.meta.dirname, "..");

describe("grammar comments", () => {
  const files = listApiSourceFiles(root);
  it.each(files.map((file) => [path.relative(root, file), file]))(
    "%s documents its codecs with the current grammar",
    async (_name, file) => {
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      const source = fs.readFileSync(file, "utf8");
      const schemas = Object.entries(module).filter(
        (entry): entry is [string, MessageSchema<never>] => entry[1] instanceof MessageSchema,
      );
      expect(schemas.length).toBeGreaterThan(0);
      for (const [name, schema] of schemas) {
        expect(source).toContain(`${grammarComment(describeSchema(schema))}\nexport const ${name} = `);
      }
    },
  );

  it("every supported API's codecs live in a documented file", () => {
    const documented = new Set<unknown>();
    return Promise.all(
      files.map(async (file) => Object.values((await import(pathToFileURL(file).href)) as Record<string, unknown>)),
    ).then((exports) => {
      for (const values of exports) for (const value of values) documented.add(value);
      for (const api of Object.values(SUPPORTED_APIS)) {
        expect(documented.has(api.request), api.name).toBe(true);
        expect(documented.has(api.response), api.name).toBe(true);
      }
    });
  });
});
