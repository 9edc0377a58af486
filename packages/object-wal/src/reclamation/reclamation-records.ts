// The reclamation journal (packages/core/README.md, "Storage reclamation"): one ObjectReclamation record per
// physical object a stream stopped relying on, under that stream, written in the same transaction that removed the
// stream's protection of the object. It is how a collection resumes after a crash: every later step (mark, delete,
// forget) starts from the journal, never from memory, and moves the object's root and the record together by CAS.
//   RELEASED — the stream's protection is gone; other streams may still protect the object.
//   MARKED   — no protection was left; the root is MARKED (no new reference can be made) until deleteNotBefore.
//   DELETING — grace over, still no protection, no read of this process pins it: the bytes are being deleted.
//   DELETED  — the bytes are gone (absence confirmed); root and record stay as a tombstone for a while, then go.
import { WireEnum } from "@nereus/core/internal";
import type { PhysicalObjectKind } from "../roots/physical-object-records.js";

export type ReclamationState = "RELEASED" | "MARKED" | "DELETING" | "DELETED";

/** One object in a stream's reclamation journal. Identity fields never change; times are 0 until reached. */
export interface ObjectReclamation {
  readonly streamId: string;
  readonly objectKey: string;
  /** Hex SHA-256 of `objectKey` (the journal key's last component). */
  readonly objectKeyHash: string;
  readonly kind: PhysicalObjectKind;
  readonly state: ReclamationState;
  readonly releasedAtMillis: number;
  readonly markedAtMillis: number;
  /** The root may move to DELETING from this time on (mark time + grace period). */
  readonly deleteNotBeforeMillis: number;
  readonly deletedAtMillis: number;
  /** Byte length of the object, from its root (0 until MARKED). */
  readonly objectLength: number;
}

/** Durable wire ids. Never renumber. */
export const ReclamationWireIds = {
  state: new WireEnum<ReclamationState>("ReclamationState", [
    ["RELEASED", 1],
    ["MARKED", 2],
    ["DELETING", 3],
    ["DELETED", 4],
  ]),
} as const;
