// Public API of @nereus/object-wal. Every export is named here.
export { S3ObjectStore, createS3ObjectStore, type S3ObjectStoreOptions } from "./s3-object-store.js";
export { FileSystemObjectStore, createFileSystemObjectStore, type FileSystemObjectStoreOptions } from "./file-system-object-store.js";
export { assertObjectKey, assertListPrefix, MAX_OBJECT_KEY_BYTES } from "./assert-object-key.js";
export { crc32cToBase64, crc32cFromBase64 } from "./crc32c-base64.js";

// NRS1 WAL object format (docs/wal-object-format.md).
export { encodeWalObject } from "./format/encode-wal-object.js";
export { decodeWalObject } from "./format/decode-wal-object.js";
export { decodeSlice } from "./format/decode-slice.js";
export { decodeWalObjectFooter } from "./format/decode-wal-object-footer.js";
export { decodeWalManifest } from "./format/decode-wal-manifest.js";
export { WAL_OBJECT_LAYOUT, walSliceId } from "./format/wal-object-layout.js";
export type {
  WalObjectInput,
  WalSliceInput,
  WalEntryInput,
  WalObjectHeader,
  WalSliceDescriptor,
  WalObjectFooter,
  EncodedWalObject,
  DecodedWalObject,
  DecodedWalSlice,
} from "./format/wal-object-model.js";
