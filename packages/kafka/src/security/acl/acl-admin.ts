// The ACL administration behind CreateAcls, DescribeAcls and DeleteAcls, over the durable store and this broker's
// cache: creations are checked (acl-binding-check.ts) before any write and grouped per resource pattern; describe
// reads the cache as refreshed just before; delete matches the filters against a fresh load and removes what they
// select. Each call refreshes the cache when it changed something, so the caller's next request sees the change.
import { bindingProblem } from "./acl-binding-check.js";
import { type AclBindingFilter, filterMatches } from "./acl-binding-filter.js";
import type { AclCache } from "./acl-cache.js";
import type { AclStore } from "./acl-store.js";
import type { AclBinding, ResourcePattern } from "./acl-types.js";

/** The outcome of one creation: undefined when stored, else why it was refused. */
export type CreationOutcome = { readonly invalid: string } | { readonly failed: unknown } | undefined;

function patternKey(pattern: ResourcePattern): string {
  return `${String(pattern.resourceType)}/${String(pattern.patternType)}/${pattern.name}`;
}

/** See the module comment. */
export class AclAdmin {
  readonly #store: AclStore;
  readonly #cache: AclCache;

  constructor(store: AclStore, cache: AclCache) {
    this.#store = store;
    this.#cache = cache;
  }

  /** Stores `bindings`; one outcome per binding, in order (an invalid one does not stop the others). */
  async create(bindings: readonly AclBinding[], signal?: AbortSignal): Promise<CreationOutcome[]> {
    const outcomes: CreationOutcome[] = bindings.map((binding) => {
      const problem = bindingProblem(binding);
      return problem === undefined ? undefined : { invalid: problem };
    });
    const groups = new Map<string, number[]>();
    bindings.forEach((binding, index) => {
      if (outcomes[index] !== undefined) return;
      const key = patternKey(binding.pattern);
      groups.set(key, [...(groups.get(key) ?? []), index]);
    });
    await Promise.all(
      [...groups.values()].map(async (indexes) => {
        const pattern = bindings[indexes[0]!]!.pattern;
        try {
          await this.#store.add(
            pattern,
            indexes.map((index) => bindings[index]!.entry),
            signal,
          );
        } catch (error) {
          for (const index of indexes) outcomes[index] = { failed: error };
        }
      }),
    );
    if (groups.size > 0) await this.#cache.refresh();
    return outcomes;
  }

  /** The stored bindings `filter` selects (from a snapshot loaded after this call). */
  async describe(filter: AclBindingFilter): Promise<AclBinding[]> {
    const index = await this.#cache.refresh();
    return index.bindings().filter((binding) => filterMatches(filter, binding));
  }

  /** Deletes what each filter selects; per filter, the bindings it removed (a binding two filters select is reported by both). */
  async delete(filters: readonly AclBindingFilter[], signal?: AbortSignal): Promise<AclBinding[][]> {
    const stored = (await this.#store.load(signal)).bindings();
    const selected = filters.map((filter) => stored.filter((binding) => filterMatches(filter, binding)));
    const byPattern = new Map<string, AclBinding[]>();
    for (const binding of new Set(selected.flat())) {
      const key = patternKey(binding.pattern);
      byPattern.set(key, [...(byPattern.get(key) ?? []), binding]);
    }
    await Promise.all(
      [...byPattern.values()].map((group) =>
        this.#store.remove(
          group[0]!.pattern,
          group.map((binding) => binding.entry),
          signal,
        ),
      ),
    );
    if (byPattern.size > 0) await this.#cache.refresh();
    return selected;
  }
}
