// Constants of the NCS1 snapshot layout (documented in snapshot-codec.ts): magics, versions and fixed sizes.

/** "NCS1": first bytes of every snapshot object. */
export const SNAPSHOT_MAGIC = 0x4e43_5331;
/** "NCR1": the range section. */
export const RANGE_SECTION_MAGIC = 0x4e43_5231;
/** "NCB1": the partial (batch) section. */
export const PARTIAL_SECTION_MAGIC = 0x4e43_4231;
/** "NCF1": the footer. */
export const FOOTER_MAGIC = 0x4e43_4631;

/** Major version this codec writes and the only one it reads. */
export const MAJOR_VERSION = 1;
/** Minor version this codec writes; readers accept any minor of their major (extensions sit in the header). */
export const MINOR_VERSION = 0;

/** Header bytes before the stream id: magic .. partialCount (see the layout). */
export const HEADER_FIXED_BYTES = 96;
/** Header bytes besides the stream id's UTF-8: the fixed part, the u16 stream id length and the header CRC. */
export const HEADER_OVERHEAD_BYTES = HEADER_FIXED_BYTES + 2 + 4;
/** Bytes of a section besides its body: magic, u32 body length, CRC. */
export const SECTION_OVERHEAD_BYTES = 12;
/** Footer: magic, u64 total length, CRC. */
export const FOOTER_BYTES = 16;
/** The smallest snapshot: a one-byte stream id, empty sections. */
export const MIN_SNAPSHOT_BYTES = HEADER_OVERHEAD_BYTES + 1 + 2 * SECTION_OVERHEAD_BYTES + FOOTER_BYTES;

/** Smallest encoded range (two one-byte varints). */
export const MIN_RANGE_BYTES = 2;
/** Smallest encoded partial (three one-byte varints and one word). */
export const MIN_PARTIAL_BYTES = 11;
