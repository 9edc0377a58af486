// The shape every metadata record codec shares.

/**
 * Encodes and decodes one record type inside the NRM1 envelope.
 *
 * Invariants: `encode` is canonical (equal values ⇒ equal bytes) and refuses values that break the record's
 * invariants; `decode(encode(v), keyOf(v))` equals `v`; `decode` rejects anything `encode` could not have produced
 * for that key — corruption, a foreign record type, an unknown newer schema, or a value that does not belong to
 * the key — with `NereusError(METADATA_INVARIANT_VIOLATION)`.
 */
export interface RecordCodec<T> {
  /** Stable record type name written into the envelope. */
  readonly recordType: string;
  /** Schema version this codec writes (and the newest it reads). */
  readonly schemaVersion: number;
  encode(value: T): Uint8Array;
  /** `key` is the metadata key the bytes were read from; the decoded record must belong to it. */
  decode(bytes: Uint8Array, key: string): T;
}
