// When a root should move its inline ack state into a new snapshot: when its inline part grows past a share of the
// base (so the O(n) spill is paid once per n/16 inline items, clamped) or the encoded root gets too large.
import type { CursorLimits } from "../store/cursor-store-options.js";
import { inlineItemCount } from "./ack-queries.js";
import type { AckView } from "./ack-view.js";

export type SpillLimits = Pick<CursorLimits, "minInlineItems" | "maxInlineItems" | "maxInlineBytes">;

/** Items (ranges + partials) of the base the view still uses; partials below markDelete are counted too. */
function liveBaseItems(view: AckView): number {
  return view.base.ranges.countEndingAfter(view.markDeleteOffset) + view.base.partials.size;
}

/**
 * True when the view should spill: inline items exceed `clamp(baseItems / 16, minInlineItems, maxInlineItems)`, or
 * `encodedRootBytes` (the root's encoded size, when known) exceeds `maxInlineBytes`.
 */
export function shouldSpill(view: AckView, limits: SpillLimits, encodedRootBytes?: number): boolean {
  if (encodedRootBytes !== undefined && encodedRootBytes > limits.maxInlineBytes) return true;
  const share = Math.floor(liveBaseItems(view) / 16);
  const threshold = Math.min(limits.maxInlineItems, Math.max(limits.minInlineItems, share));
  return inlineItemCount(view) > threshold;
}
