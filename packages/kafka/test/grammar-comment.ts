// Shared by the grammar-comment test and scripts/update-grammar-comments.ts: where the API codecs live and how
// the comment above each one is formatted.
import fs from "node:fs";
import path from "node:path";

/** Every non-test source file under src/protocol/apis. */
export function listApiSourceFiles(packageRoot: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) out.push(full);
    }
  };
  walk(path.join(packageRoot, "src", "protocol", "apis"));
  return out.sort();
}

/** The TSDoc block holding `lines` as the grammar of a codec. */
export function grammarComment(lines: readonly string[]): string {
  return ["/**", " * Grammar:", " *", ...lines.map((line) => ` *   ${line}`), " */"].join("\n");
}
