// A lower bound of one stream's committed end, refreshed from the stream head only when acks name an offset at or
// beyond it. Acks must name committed entries: a cursor acknowledged past the committed end would make its stream
// unopenable (the open checks markDelete <= committed end), so the ack group commit fails such acks alone with
// INVALID_ARGUMENT before writing. The committed end never decreases, so a cached value is always a safe bound.
import type { CursorStreamAccess } from "./cursor-store-options.js";

export class CommittedEnd {
  #known: number;
  #refresh: Promise<number> | undefined;

  constructor(
    private readonly streams: CursorStreamAccess,
    readonly streamId: string,
    known = 0,
  ) {
    this.#known = known;
  }

  /** The highest committed end seen so far. */
  get known(): number {
    return this.#known;
  }

  /** Records a committed end learned elsewhere (ignored when lower than the one known). */
  observe(end: number): void {
    if (end > this.#known) this.#known = end;
  }

  /** The committed end: the known one when it is at least `wanted`, else freshly read from the stream head. */
  async atLeast(wanted: number, signal?: AbortSignal): Promise<number> {
    if (wanted <= this.#known) return this.#known;
    this.#refresh ??= this.streams
      .getHead(this.streamId, { signal })
      .then((head) => {
        this.observe(head.committedEndOffset);
        return this.#known;
      })
      .finally(() => {
        this.#refresh = undefined;
      });
    return this.#refresh;
  }
}
