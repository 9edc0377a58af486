// The wire ids of every enum stored in cursor records. Durable: never renumber, never reuse a retired id.
import { WireEnum } from "@nereus/core/internal";
import type { CursorLifecycle, ProtectionKind, RetentionLifecycle } from "../domain/cursor-records.js";

/** Wire ids by enum. */
export const CursorWireIds = {
  cursorLifecycle: new WireEnum<CursorLifecycle>("CursorLifecycle", [
    ["ACTIVE", 1],
    ["DELETED", 2],
  ]),
  retentionLifecycle: new WireEnum<RetentionLifecycle>("RetentionLifecycle", [
    ["ACTIVE", 1],
    ["PROTECTION_PENDING", 2],
    ["TRIM_PENDING", 3],
  ]),
  protectionKind: new WireEnum<ProtectionKind>("ProtectionKind", [
    ["CREATE", 1],
    ["RECREATE", 2],
    ["BACKWARD_RESET", 3],
  ]),
} as const;
