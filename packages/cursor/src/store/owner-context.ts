// The owner session of one stream's cursors, and the one way cursor metadata is written: a transaction that also
// compares the stream's owner record byte for byte. Once another session claimed the stream, every write of this
// one fails with CURSOR_FENCED, never rebased (an older broker's delayed CAS cannot land).
import {
  ErrorCode,
  type MetadataStore,
  NereusError,
  type ObjectStore,
  type TxnRequest,
  type TxnResult,
} from "@nereus/core";
import { bytesEqual } from "@nereus/core/internal";
import type { CursorLimits, CursorStreamAccess } from "./cursor-store-options.js";

/** The resolved options of a cursor store (limits filled in). */
export interface CursorEnvironment {
  readonly metadata: MetadataStore;
  readonly objects: ObjectStore;
  readonly streams: CursorStreamAccess;
  readonly cluster: string;
  readonly limits: CursorLimits;
  readonly now: () => number;
}

/** One claimed stream: the session every cursor write of this process for the stream is fenced on. */
export interface OwnerContext {
  readonly env: CursorEnvironment;
  readonly streamId: string;
  /** 32 lowercase hex digits, random per claim. */
  readonly ownerSessionId: string;
  readonly ownerKey: string;
  /** The exact bytes of the owner record this session wrote. */
  readonly ownerValue: Uint8Array;
}

/**
 * Runs `request` only while `owner` still owns the stream. Resolves the store's result when the owner record is
 * unchanged (a failed compare then means one of the request's own compares failed; `current` holds its
 * `readOnFailure` keys); throws CURSOR_FENCED when another session owns the stream now.
 */
export async function ownedTxn(
  owner: OwnerContext,
  request: TxnRequest,
  options: { readonly signal?: AbortSignal } = {},
): Promise<TxnResult> {
  const result = await owner.env.metadata.txn(
    {
      ...request,
      compares: [...request.compares, { key: owner.ownerKey, value: owner.ownerValue }],
      readOnFailure: [...(request.readOnFailure ?? []), owner.ownerKey],
    },
    options,
  );
  if (!result.succeeded) {
    const current = result.current.get(owner.ownerKey);
    if (current === undefined || !bytesEqual(current.value, owner.ownerValue)) throw fencedError(owner);
  }
  return result;
}

/** The CURSOR_FENCED error of a session that lost the stream. */
export function fencedError(owner: OwnerContext): NereusError {
  return new NereusError(
    ErrorCode.CURSOR_FENCED,
    `cursor owner session ${owner.ownerSessionId} of stream ${owner.streamId} was replaced by a newer owner`,
    { retryable: false },
  );
}
