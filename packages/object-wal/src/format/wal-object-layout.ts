// Fixed facts of the NRS1 WAL object format, version 1.0 (docs/wal-object-format.md is the normative description):
// magic numbers, version, sizes and limits, and how slice ids are derived. No encoding logic lives here.

/** Constants of the NRS1 format. All integers in the format are big-endian. */
export const WAL_OBJECT_LAYOUT = {
  /** First and last four bytes of every NRS1 object. */
  objectMagic: Uint8Array.of(0x4e, 0x52, 0x53, 0x31), // "NRS1"
  /** First four bytes of every slice. */
  sliceMagic: Uint8Array.of(0x4e, 0x52, 0x53, 0x4c), // "NRSL"
  /** First four bytes of the manifest. */
  manifestMagic: Uint8Array.of(0x4e, 0x52, 0x53, 0x4d), // "NRSM"
  formatMajor: 1,
  formatMinor: 0,
  /** manifestOffset u64 + manifestLength u32 + manifestChecksum u32 + objectChecksum u32 + magic. */
  footerBytes: 24,
  /** Bytes per entry-index item: recordCount u32, payloadOffset u32, payloadLength u32. */
  indexItemBytes: 12,
  /** Most offsets one entry may consume (the ranged-entry limit of the core). */
  maxEntryRecordCount: 0x7fff_ffff,
  /** Upper bound of a slice's byte length (its length field is a u32). */
  maxSliceBytes: 0xffff_ffff,
} as const;

/** The id of slice `ordinal` in the object written by attempt `attemptKey`: `attemptKey + "/" + 6-digit ordinal`. */
export function walSliceId(attemptKey: string, ordinal: number): string {
  return `${attemptKey}/${String(ordinal).padStart(6, "0")}`;
}
