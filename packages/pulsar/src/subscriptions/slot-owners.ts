// Key_Shared ordering across consumer changes: for each hash slot with entries handed out and not yet
// acknowledged, the consumer holding them and how many. While a slot is held, its entries may go to that consumer
// only; once the count drops to zero the slot is free for whichever consumer the hash ranges now name.

/** Which consumer holds unacknowledged entries of which slot. Invariant: every count is positive. */
export class SlotOwners {
  readonly #holders = new Map<number, { readonly consumerId: bigint; count: number }>();

  /** The consumer holding entries of `slot`, or undefined when the slot is free. */
  holder(slot: number): bigint | undefined {
    return this.#holders.get(slot)?.consumerId;
  }

  /** Records one more entry of `slot` held by `consumerId` (the slot must be free or held by it). */
  hold(slot: number, consumerId: bigint): void {
    const holder = this.#holders.get(slot);
    if (holder === undefined) this.#holders.set(slot, { consumerId, count: 1 });
    else if (holder.consumerId === consumerId) holder.count += 1;
    else throw new Error(`slot ${slot} is held by consumer ${holder.consumerId}, not ${consumerId}`);
  }

  /** Records that one entry of `slot` is no longer held. */
  release(slot: number): void {
    const holder = this.#holders.get(slot);
    if (holder === undefined) return;
    holder.count -= 1;
    if (holder.count === 0) this.#holders.delete(slot);
  }

  clear(): void {
    this.#holders.clear();
  }
}
