// Joins byte chunks into one array: the chunk itself when there is one (no copy), else one exact-size copy.
// Shared by RecordParts (record parts -> one records value) and the connection (response parts -> one frame).

/** `chunks` as one array; `total` (their summed length) may be passed when the caller already knows it. */
export function joinBytes(chunks: readonly Uint8Array[], total?: number): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  let length = total;
  if (length === undefined) {
    length = 0;
    for (const chunk of chunks) length += chunk.byteLength;
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
