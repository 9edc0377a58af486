// Rewrites the "Grammar:" comment above every message codec in src/protocol/apis from the codec itself
// (schema/describe-schema.ts). Run after editing a schema: `pnpm exec tsx scripts/update-grammar-comments.ts`.
// grammar-comments.test.ts fails when a comment is out of date.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MessageSchema } from "../src/protocol/schema/message-schema.js";
import { describeSchema } from "../src/protocol/schema/describe-schema.js";
import { grammarComment, listApiSourceFiles } from "../test/grammar-comment.js";

const root = path.resolve(import.meta.dirname, "..");
let changed = 0;
for (const file of listApiSourceFiles(root)) {
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  let text = fs.readFileSync(file, "utf8");
  const before = text;
  for (const [name, value] of Object.entries(module)) {
    if (!(value instanceof MessageSchema)) continue;
    const pattern = new RegExp(`/\\*\\*\\n \\* Grammar:[\\s\\S]*?\\*/\\nexport const ${name} = `);
    text = text.replace(pattern, `${grammarComment(describeSchema(value))}\nexport const ${name} = `);
  }
  if (text !== before) {
    fs.writeFileSync(file, text);
    changed += 1;
  }
}
console.log(`updated ${String(changed)} file(s)`);
