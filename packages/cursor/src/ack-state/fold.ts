// Folding: brings a view whose markDelete was moved (or whose inline part grew) back to the root invariants. While a
// range of base ∪ inline contains markDelete, markDelete moves to that range's end; inline ranges and partials left
// below markDelete are dropped. Returns the input itself when nothing changes.
import { endOfAckedRun } from "./ack-queries.js";
import type { AckView } from "./ack-view.js";
import { firstPartialAtOrAfter, firstRangeEndingAfter } from "./inline-search.js";

/** The view with markDelete advanced past every range containing it and inline items below it dropped. */
export function fold(view: AckView): AckView {
  const markDeleteOffset = endOfAckedRun(view, view.markDeleteOffset);
  const firstRange = firstRangeEndingAfter(view.inlineRanges, markDeleteOffset);
  const firstPartial = firstPartialAtOrAfter(view.inlinePartials, markDeleteOffset);
  if (markDeleteOffset === view.markDeleteOffset && firstRange === 0 && firstPartial === 0) return view;
  return {
    markDeleteOffset,
    base: view.base,
    inlineRanges: firstRange === 0 ? view.inlineRanges : view.inlineRanges.slice(firstRange),
    inlinePartials: firstPartial === 0 ? view.inlinePartials : view.inlinePartials.slice(firstPartial),
  };
}
