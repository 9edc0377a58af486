// How the writer thread turns what went wrong into a `WriterFailure` the main thread can read: a `WriterRefusal`
// carries an outcome of the store's own (lease not found, a broken invariant, a closed gate); any other error is
// described by its message, errno code and class name.
import type { WriterFailure } from "./sqlite-writer-protocol.js";

/** A refusal of an operation by the store's rules (not a SQLite or system failure); thrown to leave a savepoint. */
export class WriterRefusal extends Error {
  readonly refusal: WriterFailure;

  constructor(refusal: WriterFailure) {
    super(refusal.kind);
    this.refusal = refusal;
  }
}

/** `error` as a {@link WriterFailure}: a refusal's own, or kind "error" with the error's message, code and name. */
export function describeWriterFailure(error: unknown): WriterFailure {
  if (error instanceof WriterRefusal) return error.refusal;
  const code = (error as { readonly code?: unknown } | null | undefined)?.code;
  return {
    kind: "error",
    message: error instanceof Error ? error.message : String(error),
    code: typeof code === "string" ? code : undefined,
    name: error instanceof Error ? error.name : undefined,
  };
}
