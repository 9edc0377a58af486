// Reads and decodes a stream head with its revision (one linearizable `get`).
import { ErrorCode } from "../errors/error-code.js";
import { NereusError } from "../errors/nereus-error.js";
import type { MetadataStore } from "../spi/metadata-store.js";
import type { StreamKeyspace, VersionedHead } from "./stream-keyspace.js";

/** The current head of `streamId`; throws STREAM_NOT_FOUND when it does not exist. */
export async function loadHead(
  metadata: MetadataStore,
  keyspace: StreamKeyspace,
  streamId: string,
  signal?: AbortSignal,
): Promise<VersionedHead> {
  const stored = await metadata.get(keyspace.headKey(streamId), { signal });
  if (stored === undefined) {
    throw new NereusError(ErrorCode.STREAM_NOT_FOUND, `stream ${streamId} does not exist`, {
      retryable: false,
      details: { streamId },
    });
  }
  return keyspace.decodeHead(stored);
}
