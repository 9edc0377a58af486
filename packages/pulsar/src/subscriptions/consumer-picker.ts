// Which consumer an entry goes to, by subscription type. Exclusive and Failover: the active consumer. Shared:
// round-robin over the consumers of the best priority level that have the permits. Key_Shared: the owner of the
// entry's hash slot, but only once no other consumer holds unacknowledged entries of that slot and no older entry
// of the slot waits for redelivery. Reads the dispatch state; changes only the round-robin position.
import type { ConsumerState } from "./consumer-state.js";
import type { DispatchState } from "./dispatch-state.js";
import type { EntryMeta } from "./replay-queue.js";

/**
 * The consumer to hand the entry to; `"blocked"` when Key_Shared ordering holds it back (dispatch continues with
 * other entries); undefined when no consumer can take it now.
 */
export type Pick = ConsumerState | "blocked" | undefined;

/** Picks the consumer for `meta` costing `cost` permits; `fromReplay` when the entry comes from the replay queue. */
export function pickConsumer(
  state: DispatchState,
  meta: EntryMeta,
  cost: number,
  fromReplay: boolean,
  overdraft: boolean,
): Pick {
  switch (state.type) {
    case "Exclusive":
    case "Failover":
      return state.active?.canTake(cost, overdraft) === true ? state.active : undefined;
    case "Shared":
      return pickRoundRobin(state, cost, overdraft);
    case "Key_Shared":
      return pickBySlot(state, meta, cost, fromReplay, overdraft);
    default:
      return undefined;
  }
}

function pickRoundRobin(state: DispatchState, cost: number, overdraft: boolean): ConsumerState | undefined {
  const consumers = [...state.consumers.values()];
  let chosen: number | undefined;
  for (let step = 0; step < consumers.length; step++) {
    const index = (state.roundRobin + step) % consumers.length;
    const consumer = consumers[index]!;
    if (!consumer.canTake(cost, overdraft)) continue;
    if (chosen === undefined || consumer.priorityLevel < consumers[chosen]!.priorityLevel) chosen = index;
  }
  if (chosen === undefined) return undefined;
  state.roundRobin = (chosen + 1) % consumers.length;
  return consumers[chosen];
}

function pickBySlot(
  state: DispatchState,
  meta: EntryMeta,
  cost: number,
  fromReplay: boolean,
  overdraft: boolean,
): Pick {
  const ownerId = state.selector.select(meta.slot);
  const owner = ownerId === undefined ? undefined : state.consumers.get(ownerId);
  if (owner === undefined) return undefined;
  const holder = state.slotOwners.holder(meta.slot);
  if (holder !== undefined && holder !== owner.id) return "blocked";
  if (!fromReplay && state.replay.hasSlot(meta.slot)) return "blocked";
  return owner.canTake(cost, overdraft) ? owner : "blocked";
}
