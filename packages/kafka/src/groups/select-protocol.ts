// Kafka's protocol (assignor) selection for a classic group: among the protocols every member supports, each
// member votes for the first one in its own preference order; the protocol with the most votes wins. Ties go to
// the candidate the first member prefers, so the choice is deterministic.

/**
 * The chosen protocol name, given each member's supported protocol names in preference order (members in join
 * order). Returns null when no protocol is supported by every member (the coordinator prevents that on join).
 */
export function selectProtocol(memberPreferences: readonly (readonly string[])[]): string | null {
  const first = memberPreferences[0];
  if (first === undefined) return null;
  const candidates = first.filter((name) => memberPreferences.every((preferences) => preferences.includes(name)));
  if (candidates.length === 0) return null;
  const votes = new Map<string, number>();
  for (const preferences of memberPreferences) {
    const vote = preferences.find((name) => candidates.includes(name));
    if (vote !== undefined) votes.set(vote, (votes.get(vote) ?? 0) + 1);
  }
  let chosen: string | null = null;
  let best = 0;
  for (const candidate of candidates) {
    const count = votes.get(candidate) ?? 0;
    if (count > best) {
      chosen = candidate;
      best = count;
    }
  }
  return chosen;
}
