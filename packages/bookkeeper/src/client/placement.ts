// Ensemble placement: pick distinct bookies uniformly at random from the writable ones (the Java default
// placement without racks). Pure apart from the random source.
import { ErrorCode, NereusError } from "@nereus/core";

/**
 * Picks `count` distinct bookies from `candidates` minus `exclude`, in random order.
 * @throws PRIMARY_WAL_WRITE_FAILED (retryable) when not enough bookies are available.
 */
export function chooseBookies(
  candidates: readonly string[],
  count: number,
  exclude: ReadonlySet<string> = new Set(),
  random: () => number = Math.random,
): string[] {
  const pool = candidates.filter((bookie) => !exclude.has(bookie));
  if (pool.length < count) {
    throw new NereusError(
      ErrorCode.PRIMARY_WAL_WRITE_FAILED,
      `not enough bookies: need ${String(count)}, ${String(pool.length)} available`,
      {
        retryable: true,
        details: { needed: count, available: pool.length, excluded: [...exclude] },
      },
    );
  }
  for (let i = pool.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [pool[i], pool[j]] = [pool[j] as string, pool[i] as string];
  }
  return pool.slice(0, count);
}
