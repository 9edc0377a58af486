// Reads every cursor root of one stream (ACTIVE cursors and DELETED tombstones) by paged scans. A paged scan is not
// one snapshot: callers that need a stable set compare the fingerprints of two scans.
import type { KeyValue } from "@nereus/core";
import { cursorRootsPrefix } from "../keys/cursor-keys.js";
import type { CursorEnvironment } from "../store/owner-context.js";

/** Keys one scan page asks for. */
const SCAN_PAGE_SIZE = 256;

/** Every root key/value under the stream's roots prefix, in key order (paged; not one snapshot). */
export async function scanCursorRootValues(
  env: CursorEnvironment,
  streamId: string,
  signal: AbortSignal | undefined,
): Promise<KeyValue[]> {
  const prefix = cursorRootsPrefix(env.cluster, streamId);
  const values: KeyValue[] = [];
  let startAfter: string | undefined;
  for (;;) {
    const page = await env.metadata.scan(prefix, { limit: SCAN_PAGE_SIZE, startAfter, signal });
    values.push(...page.items);
    const last = page.items.at(-1);
    if (!page.more || last === undefined) return values;
    startAfter = last.key;
  }
}

/** True when the stream has at least one cursor root (one single-key scan). */
export async function hasCursorRoots(
  env: CursorEnvironment,
  streamId: string,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const page = await env.metadata.scan(cursorRootsPrefix(env.cluster, streamId), { limit: 1, signal });
  return page.items.length > 0;
}

/** Identity of one scan's result: its keys with their revisions (equal fingerprints ⇒ nothing changed). */
export function rootsFingerprint(values: readonly KeyValue[]): string {
  return values.map((value) => `${value.key}@${String(value.modRevision)}`).join("\n");
}
