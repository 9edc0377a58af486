// Create-or-get of a stream: the stream id is derived from the name, so creation is one put-if-absent of the head
// (docs/architecture.md §1). An existing stream is returned as it is — its profile and attributes are immutable — and a
// request that disagrees with them is refused with a message naming both values. A response-lost create is
// resolved by simply asking again (the second put-if-absent reads back whichever head won).
import type { StorageProfile } from "../domain/storage-profile.js";
import { freshStreamHead } from "../domain/fresh-stream-head.js";
import type { StreamHead } from "../domain/stream-head.js";
import { ErrorCode } from "../errors/error-code.js";
import { MetadataAmbiguousError } from "../errors/metadata-ambiguous-error.js";
import { NereusError } from "../errors/nereus-error.js";
import { streamIdFromName } from "../identity/stream-id-from-name.js";
import type { LifecycleContext } from "./lifecycle-context.js";
import type { VersionedHead } from "../records/stream-keyspace.js";

export interface CreateStreamHeadInput {
  readonly name: string;
  readonly profile: StorageProfile;
  /** `undefined` = no expectation (an existing stream's attributes are accepted as they are). */
  readonly attributes: Readonly<Record<string, string>> | undefined;
  readonly signal: AbortSignal;
}

export interface CreatedStreamHead {
  readonly head: VersionedHead;
  /** True when this call created the stream. */
  readonly created: boolean;
}

const MAX_ATTEMPTS = 4;

/** Creates the head or returns the existing one. Throws STREAM_ALREADY_EXISTS on a profile/attribute mismatch. */
export async function createStreamHead(
  context: LifecycleContext,
  input: CreateStreamHeadInput,
): Promise<CreatedStreamHead> {
  const streamId = streamIdFromName(input.name);
  const headKey = context.keyspace.headKey(streamId);
  const fresh = freshStreamHead({
    streamId,
    streamName: input.name,
    profile: input.profile,
    attributes: input.attributes ?? {},
    createdAtMillis: context.clock(),
  });
  const bytes = context.keyspace.encodeHead(fresh);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let result;
    try {
      result = await context.metadata.txn(
        {
          compares: [{ key: headKey, modRevision: 0 }],
          writes: [{ type: "put", key: headKey, value: bytes }],
          readOnFailure: [headKey],
        },
        { signal: input.signal },
      );
    } catch (error) {
      if (MetadataAmbiguousError.isAmbiguous(error)) continue;
      throw error;
    }
    if (result.succeeded) return { head: { head: fresh, revision: result.revision }, created: true };
    const stored = result.current.get(headKey);
    if (stored === undefined) continue;
    const existing = context.keyspace.decodeHead(stored);
    checkCompatible(existing.head, input);
    return { head: existing, created: false };
  }
  throw new NereusError(ErrorCode.METADATA_UNAVAILABLE, `stream ${input.name}: could not create or read its head`);
}

function checkCompatible(existing: StreamHead, input: CreateStreamHeadInput): void {
  if (existing.streamName !== input.name) {
    throw new NereusError(
      ErrorCode.METADATA_INVARIANT_VIOLATION,
      `stream id ${existing.streamId} belongs to ${JSON.stringify(existing.streamName)}, not ${JSON.stringify(input.name)} (hash collision)`,
      { retryable: false },
    );
  }
  if (existing.profile !== input.profile) {
    throw new NereusError(
      ErrorCode.STREAM_ALREADY_EXISTS,
      `stream ${JSON.stringify(input.name)} already exists with storage profile ${existing.profile}; requested ${input.profile}. ` +
        "A stream's profile is fixed at creation and never changes.",
      {
        retryable: false,
        details: { streamId: existing.streamId, existingProfile: existing.profile, requestedProfile: input.profile },
      },
    );
  }
  if (input.attributes !== undefined && !sameAttributes(existing.attributes, input.attributes)) {
    throw new NereusError(
      ErrorCode.STREAM_ALREADY_EXISTS,
      `stream ${JSON.stringify(input.name)} already exists with different attributes; attributes are fixed at creation`,
      { retryable: false, details: { streamId: existing.streamId } },
    );
  }
}

function sameAttributes(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && b[key] === a[key]);
}
