// Test fixture: a stream store whose append and recovery outcomes a test scripts, for the ledger outcomes the
// in-memory providers cannot produce on demand (a verdict held back, an attempt the store forgot, a result that
// does not match its append). One stream; committed entries kept in memory. Test-only.
import {
  AppendFailedError,
  type AppendBatch,
  type AppendOptions,
  type AppendResult,
  ErrorCode,
  NereusError,
  type ReadOptions,
  type ReadResult,
  type StreamHead,
  type StreamState,
} from "@nereus/core";
import { streamHeadFixture } from "@nereus/core/testing";
import type { StreamCursors } from "@nereus/cursor";
import type { LedgerStreams } from "../src/ledger/managed-ledger-options.js";

/** What the next append call does (default "commit"). */
export type ScriptedAppend =
  /** Commits at the expected offset, or fails OFFSET_CONFLICT (KNOWN_NOT_COMMITTED) when it is not the end. */
  | { readonly kind: "commit" }
  /** Fails KNOWN_NOT_COMMITTED with `code`. */
  | { readonly kind: "refuse"; readonly code: ErrorCode }
  /** Fails MAY_HAVE_COMMITTED; the entry is stored when `committed`. Recovery reports the truth. */
  | { readonly kind: "uncertain"; readonly committed: boolean }
  /** Commits, then reports a result one offset off. */
  | { readonly kind: "wrong-result" };

interface Attempt {
  readonly result: AppendResult | undefined;
}

/** A deferred a test releases by hand. */
export interface Hold {
  readonly promise: Promise<void>;
  readonly release: () => void;
}

export function hold(): Hold {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

export class ScriptedStreams implements LedgerStreams {
  readonly streamId: string;
  readonly entries: Uint8Array[] = [];
  readonly script: ScriptedAppend[] = [];
  state: StreamState = "ACTIVE";
  /** While set, recoverAppend waits for it. */
  recoveryHold: Hold | undefined;
  /** Recoveries that answer MAY_HAVE_COMMITTED again before the truth. */
  unresolvedRecoveries = 0;
  /** Attempt ids the store has forgotten (UNKNOWN_APPEND_ATTEMPT). */
  readonly forgotten = new Set<string>();
  recoverCalls = 0;
  readonly #attempts = new Map<string, Attempt>();
  #nextAttempt = 1;
  #size = 0;

  constructor(streamId = "s-scripted") {
    this.streamId = streamId;
  }

  head(): StreamHead {
    return streamHeadFixture({
      streamId: this.streamId,
      state: this.state,
      committedEndOffset: this.entries.length,
      cumulativeSize: this.#size,
      commitVersion: this.entries.length,
      lastCommitId: this.entries.length === 0 ? "" : `c${String(this.entries.length)}`,
    });
  }

  append(_streamId: string, batch: AppendBatch, options: AppendOptions = {}): Promise<AppendResult> {
    const step = this.script.shift() ?? { kind: "commit" };
    const payload = batch.entries[0]?.payload ?? new Uint8Array();
    if (step.kind === "refuse") return Promise.reject(notCommitted(step.code, "scripted refusal"));
    if (this.state !== "ACTIVE") return Promise.reject(notCommitted(ErrorCode.STREAM_NOT_ACTIVE, "sealed"));
    if (options.expectedStartOffset !== this.entries.length) {
      return Promise.reject(notCommitted(ErrorCode.OFFSET_CONFLICT, `end is ${String(this.entries.length)}`));
    }
    if (step.kind === "uncertain") {
      const attemptId = `run/${String(this.#nextAttempt++)}`;
      this.#attempts.set(attemptId, { result: step.committed ? this.#commit(payload) : undefined });
      return Promise.reject(
        new AppendFailedError(
          ErrorCode.METADATA_UNAVAILABLE,
          "head commit response lost",
          "MAY_HAVE_COMMITTED",
          attemptId,
        ),
      );
    }
    const result = this.#commit(payload);
    if (step.kind === "wrong-result") return Promise.resolve({ ...result, startOffset: result.startOffset + 1 });
    return Promise.resolve(result);
  }

  async recoverAppend(_streamId: string, attemptId: string): Promise<AppendResult> {
    this.recoverCalls += 1;
    await this.recoveryHold?.promise;
    if (this.forgotten.has(attemptId)) {
      throw new NereusError(ErrorCode.UNKNOWN_APPEND_ATTEMPT, `attempt ${attemptId} is not known`);
    }
    const attempt = this.#attempts.get(attemptId);
    if (attempt === undefined) throw new NereusError(ErrorCode.UNKNOWN_APPEND_ATTEMPT, "unknown");
    if (this.unresolvedRecoveries > 0) {
      this.unresolvedRecoveries -= 1;
      throw new AppendFailedError(ErrorCode.TIMEOUT, "still unresolved", "MAY_HAVE_COMMITTED", attemptId);
    }
    if (attempt.result === undefined) throw notCommitted(ErrorCode.METADATA_UNAVAILABLE, "proven absent");
    return attempt.result;
  }

  read(_streamId: string, offset: number, options: ReadOptions = {}): Promise<ReadResult> {
    const end = this.entries.length;
    const count = Math.max(0, Math.min(options.maxRecords ?? 10_000, end - offset));
    const entries = this.entries
      .slice(offset, offset + count)
      .map((payload, index) => ({ offset: offset + index, recordCount: 1, payload }));
    return Promise.resolve({
      streamId: this.streamId,
      requestedOffset: offset,
      entries,
      nextOffset: offset + entries.length,
      endOfStream: offset + entries.length >= end,
      committedEndOffset: end,
    });
  }

  getHead(): Promise<StreamHead> {
    return Promise.resolve(this.head());
  }

  seal(): Promise<StreamHead> {
    this.state = "SEALED";
    return Promise.resolve(this.head());
  }

  #commit(payload: Uint8Array): AppendResult {
    const startOffset = this.entries.length;
    this.entries.push(payload.slice());
    this.#size += payload.length;
    return {
      streamId: this.streamId,
      startOffset,
      endOffset: startOffset + 1,
      committedEndOffset: startOffset + 1,
      cumulativeSize: this.#size,
      commitVersion: startOffset + 1,
      commitId: `c${String(startOffset + 1)}`,
      generation: 0,
      readTarget: {
        type: "OBJECT_SLICE",
        version: 1,
        objectKey: "k",
        objectType: "MEMORY_OBJECT",
        sliceOffset: 0,
        sliceLength: 1,
      },
      payloadFormat: "PULSAR_ENTRY_BATCH",
      recordCount: 1,
      entryCount: 1,
      logicalBytes: payload.length,
    } as AppendResult;
  }
}

function notCommitted(code: ErrorCode, message: string): AppendFailedError {
  return new AppendFailedError(code, message, "KNOWN_NOT_COMMITTED", undefined);
}

/** Cursors for a ledger whose test never touches them. */
export const NO_CURSORS = { close: () => Promise.resolve() } as unknown as StreamCursors;
