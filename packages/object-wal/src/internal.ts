// @nereus/object-wal/internal: helpers Nereus tooling shares with the Object WAL (the NRS1 encoder, the
// materialization record and its key, the lag measure, the base64 CRC32C S3 sends). NOT a stable API: names and
// signatures change without a major version. Build on the root export (`@nereus/object-wal`) instead. Every export
// is named here.

export { crc32cToBase64 } from "./crc32c-base64.js";
export { encodeWalObject } from "./format/encode-wal-object.js";
export { measureLag } from "./generations/materialization-lag.js";
export { streamMaterializationCodec } from "./generations/stream-materialization-codec.js";
export { streamMaterializationKey } from "./generations/materialization-keys.js";
