// Publishing a cursor snapshot: the full effective ack state of a view is encoded and created as an immutable
// object (create-only, under a fresh random id; a taken key gets a new id), then verified with a head. Publishing
// makes nothing visible: only the root CAS that references the returned reference does. A root CAS that loses
// leaves the object orphaned, which is harmless (nothing reads an object no root references).
// The encoded bytes are handed to the store and not kept; the returned base is the spilled state.
import { randomBytes } from "node:crypto";
import { ErrorCode, NereusError, crc32c } from "@nereus/core";
import type { AckBase } from "../ack-state/ack-base.js";
import type { AckView } from "../ack-state/ack-view.js";
import { snapshotContentOf, spill } from "../ack-state/spill.js";
import type { CursorStateRecord, SnapshotReference } from "../domain/cursor-records.js";
import { snapshotObjectKey } from "../keys/cursor-keys.js";
import type { CursorEnvironment } from "../store/owner-context.js";
import { encodeCursorSnapshot } from "./snapshot-codec.js";

/** A created and verified snapshot object: the reference a root may now carry, and the base it decodes to. */
export interface PublishedSnapshot {
  readonly reference: SnapshotReference;
  readonly base: AckBase;
}

export interface PublishSnapshotOptions {
  readonly signal?: AbortSignal;
  /** Fresh snapshot ids (default: 128 random bits as 32 hex digits). */
  readonly newSnapshotId?: () => string;
  /** Called once per object created. */
  readonly onCreated?: (sizeBytes: number) => void;
}

/** Fresh ids tried before giving up when every key is taken (a collision of 128 random bits is not expected). */
const MAX_ID_ATTEMPTS = 4;

/**
 * Creates the snapshot of `view` for `root`, the record that will reference it (its `mutationSequence` becomes the
 * snapshot's source sequence; identity and generation come from it too). Throws METADATA_LIMIT_EXCEEDED when the
 * encoded snapshot exceeds `limits.maxSnapshotBytes`, OBJECT_CHECKSUM_MISMATCH (retryable) when the head does not
 * match what was written, and store errors unchanged.
 */
export async function publishSnapshot(
  env: CursorEnvironment,
  root: CursorStateRecord,
  view: AckView,
  options: PublishSnapshotOptions = {},
): Promise<PublishedSnapshot> {
  const base = spill(view);
  const newId = options.newSnapshotId ?? randomSnapshotId;
  const createdAtMillis = env.now();
  for (let attempt = 1; attempt <= MAX_ID_ATTEMPTS; attempt++) {
    const snapshotId = newId();
    const objectKey = snapshotObjectKey(
      env.cluster,
      root.streamId,
      root.cursorNameHash,
      root.cursorGeneration,
      snapshotId,
    );
    const bytes = encodeCursorSnapshot(
      snapshotContentOf(base, {
        snapshotId,
        streamId: root.streamId,
        cursorNameHash: root.cursorNameHash,
        cursorGeneration: root.cursorGeneration,
        sourceMutationSequence: root.mutationSequence,
        createdAtMillis,
      }),
    );
    checkSize(env, objectKey, bytes.length);
    const checksum = crc32c(bytes);
    const { created } = await env.objects.putIfAbsent(objectKey, bytes, { crc32c: checksum, signal: options.signal });
    if (!created) continue;
    options.onCreated?.(bytes.length);
    await verifyHead(env, objectKey, bytes.length, checksum, options.signal);
    const reference: SnapshotReference = {
      objectKey,
      snapshotId,
      sizeBytes: bytes.length,
      crc32c: checksum,
      sourceMutationSequence: root.mutationSequence,
      baseMarkDeleteOffset: base.baseMarkDeleteOffset,
    };
    return { reference, base };
  }
  throw new NereusError(
    ErrorCode.OBJECT_ALREADY_EXISTS,
    `cursor ${root.cursorNameHash}: ${String(MAX_ID_ATTEMPTS)} fresh snapshot ids were all taken`,
    { retryable: true },
  );
}

/** 128 random bits as 32 lowercase hex digits. */
function randomSnapshotId(): string {
  return randomBytes(16).toString("hex");
}

function checkSize(env: CursorEnvironment, objectKey: string, size: number): void {
  if (size <= env.limits.maxSnapshotBytes) return;
  throw new NereusError(
    ErrorCode.METADATA_LIMIT_EXCEEDED,
    `cursor snapshot ${objectKey} would be ${String(size)} bytes; limits.maxSnapshotBytes is ${String(env.limits.maxSnapshotBytes)}`,
    { retryable: false },
  );
}

async function verifyHead(
  env: CursorEnvironment,
  objectKey: string,
  size: number,
  checksum: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  const info = await env.objects.head(objectKey, { signal });
  if (info !== undefined && info.size === size && (info.crc32c === undefined || info.crc32c === checksum)) return;
  throw new NereusError(
    ErrorCode.OBJECT_CHECKSUM_MISMATCH,
    `cursor snapshot ${objectKey} does not read back as written (size ${String(info?.size)} of ${String(size)})`,
    { retryable: true },
  );
}
