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
export { decodeSliceBytes, type WalSliceExpectation } from "./format/decode-slice.js";

// Object WAL provider (writer + reader over an ObjectStore).
export {
  ObjectWalWriter,
  ObjectWalWriterStats,
  type ObjectWalWriterOptions,
  type ObjectWalWriterHooks,
} from "./writer/object-wal-writer.js";
export { DEFAULT_FLUSH_POLICY, type FlushPolicy } from "./writer/flush-policy.js";
export { walObjectIdentity, newProcessRunId, type WalObjectIdentity } from "./writer/wal-object-naming.js";
export { ObjectWalReader, ObjectWalReaderStats, type ObjectWalReaderOptions } from "./reader/object-wal-reader.js";

// Physical-object roots and protections (records a later garbage collector needs; nothing here deletes).
export {
  type PhysicalObjectRoot,
  type PhysicalObjectKind,
  type PhysicalObjectLifecycle,
  type ObjectProtection,
  type ObjectProtectionType,
  PhysicalObjectWireIds,
} from "./roots/physical-object-records.js";
export { physicalObjectRootCodec } from "./roots/physical-object-root-codec.js";
export { objectProtectionCodec } from "./roots/object-protection-codec.js";
export {
  objectKeyHash,
  physicalObjectRootKey,
  objectProtectionKey,
  objectProtectionsPrefix,
  physicalObjectsPrefix,
  parsePhysicalObjectRootKey,
  parseObjectProtectionKey,
} from "./roots/physical-object-keys.js";
export { PhysicalObjectRoots, protectionReferenceId, type VersionedRoot, type RootProtection } from "./roots/physical-object-roots.js";
