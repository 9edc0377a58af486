// The cursors of one open stream as this session knows them, by name hash: an open handle per ACTIVE cursor, the
// last version of each DELETED tombstone. It only keeps the map; the stream layer decides what to install.
import { ErrorCode, NereusError } from "@nereus/core";
import type { CursorCounters } from "../cursor/cursor-counters.js";
import { CursorHandle } from "../cursor/cursor-handle.js";
import type { HydratedCursor } from "../cursor/hydrated-cursor.js";
import { cursorNameHash } from "../keys/cursor-keys.js";
import { CommittedEnd } from "../store/committed-end.js";
import type { OwnerContext } from "../store/owner-context.js";

/** One cursor record of the stream: open (ACTIVE) or a tombstone (DELETED). */
export type CursorSlot =
  | { readonly kind: "active"; readonly handle: CursorHandle }
  | { readonly kind: "deleted"; readonly cursor: HydratedCursor };

/** Invariants: one slot per name hash; an "active" slot's handle is ACTIVE unless a delete is just being adopted. */
export class CursorSlots {
  readonly #owner: OwnerContext;
  readonly #counters: CursorCounters;
  /** The stream's committed end every handle checks acks against (one cache per stream). */
  readonly #committedEnd: CommittedEnd;
  readonly #slots = new Map<string, CursorSlot>();

  constructor(owner: OwnerContext, counters: CursorCounters) {
    this.#owner = owner;
    this.#counters = counters;
    this.#committedEnd = new CommittedEnd(owner.env.streams, owner.streamId);
  }

  /** Cursor records of the stream (tombstones included). */
  get size(): number {
    return this.#slots.size;
  }

  /**
   * The slot of `name` (undefined when the stream has no record of it) and its name hash. Throws INVALID_ARGUMENT
   * for an invalid name, or one whose hash belongs to another name.
   */
  lookup(name: string): { readonly hash: string; readonly slot: CursorSlot | undefined } {
    const hash = cursorNameHash(name);
    const slot = this.#slots.get(hash);
    if (slot !== undefined && nameOf(slot) !== name) {
      throw new NereusError(
        ErrorCode.INVALID_ARGUMENT,
        `cursor name ${JSON.stringify(name)} has the same name hash as cursor ${JSON.stringify(nameOf(slot))}`,
        { retryable: false },
      );
    }
    return { hash, slot };
  }

  /** The slot of name hash `hash`. */
  byHash(hash: string): CursorSlot | undefined {
    return this.#slots.get(hash);
  }

  /** The open handles of every ACTIVE cursor, by name. */
  activeHandles(): CursorHandle[] {
    const handles: CursorHandle[] = [];
    for (const slot of this.#slots.values()) if (slot.kind === "active") handles.push(slot.handle);
    return handles.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  }

  /**
   * Installs `cursor` as the latest version of its name: a new handle for an ACTIVE cursor (closing a handle of an
   * older generation), a tombstone for a DELETED one (closing the handle). Returns the handle, if any.
   */
  install(cursor: HydratedCursor): CursorHandle | undefined {
    const hash = cursor.root.cursorNameHash;
    const previous = this.#slots.get(hash);
    if (cursor.root.lifecycle === "DELETED") {
      if (previous?.kind === "active") void previous.handle.close();
      this.#slots.set(hash, { kind: "deleted", cursor });
      return undefined;
    }
    if (previous?.kind === "active") {
      if (previous.handle.generation === cursor.root.cursorGeneration) return previous.handle;
      void previous.handle.close();
    }
    const handle = new CursorHandle(this.#owner, cursor, {
      counters: this.#counters,
      committedEnd: this.#committedEnd,
    });
    this.#slots.set(hash, { kind: "active", handle });
    return handle;
  }

  /** Closes every handle (resolves once their queued mutations ended). */
  async closeAll(): Promise<void> {
    await Promise.all(this.activeHandles().map((handle) => handle.close()));
  }
}

function nameOf(slot: CursorSlot): string {
  return slot.kind === "active" ? slot.handle.name : slot.cursor.root.cursorName;
}
