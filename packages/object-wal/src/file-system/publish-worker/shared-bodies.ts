// The shared body buffers a publish worker was given (see ../shared-body-pool.ts): registered by the first
// message that carries one, named by id afterwards, dropped when the pool forgets it. The worker only reads them.
import type { SharedBodyReference } from "./publish-worker-protocol.js";
import { codedError } from "./sync-file-io.js";

/** See the module comment. */
export class SharedBodies {
  readonly #bodies = new Map<number, Uint8Array>();

  /** The whole shared buffer `reference` names, registering it when the reference carries it. Throws EMEMORY if unknown. */
  bytes(reference: SharedBodyReference<{ readonly id: number; readonly buffer: SharedArrayBuffer }>): Uint8Array {
    if ("buffer" in reference && reference.buffer !== undefined)
      this.#bodies.set(reference.id, new Uint8Array(reference.buffer));
    const bytes = this.#bodies.get(reference.id);
    if (bytes === undefined) throw codedError("EMEMORY", `shared body ${String(reference.id)} was never registered`);
    return bytes;
  }

  /** Drops buffer `id`. */
  forget(id: number): void {
    this.#bodies.delete(id);
  }
}
