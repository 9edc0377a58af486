// An immutable snapshot of every stored ACL, indexed for authorization: per resource type, LITERAL bindings by exact
// name and PREFIXED bindings by name, with the set of prefix lengths in use so that finding the PREFIXED bindings of a
// resource costs one map lookup per distinct prefix length, not a scan of all bindings.
import { type AclBinding, type AclEntry, type AclResource, PatternType, type ResourcePattern } from "./acl-types.js";
import { WILDCARD } from "./acl-types.js";

/** The entries stored for one resource pattern. */
export interface PatternAcls {
  readonly pattern: ResourcePattern;
  readonly entries: readonly AclEntry[];
}

interface TypeIndex {
  readonly literal: Map<string, AclEntry[]>;
  readonly prefixed: Map<string, AclEntry[]>;
  readonly prefixLengths: Set<number>;
}

/** See the module comment. */
export class AclIndex {
  /** An index of no ACLs. */
  static readonly EMPTY = new AclIndex([]);

  readonly #patterns: readonly PatternAcls[];
  readonly #byType = new Map<number, TypeIndex>();

  constructor(patterns: readonly PatternAcls[]) {
    this.#patterns = patterns;
    for (const { pattern, entries } of patterns) {
      let index = this.#byType.get(pattern.resourceType);
      if (index === undefined) {
        index = { literal: new Map(), prefixed: new Map(), prefixLengths: new Set() };
        this.#byType.set(pattern.resourceType, index);
      }
      const map = pattern.patternType === PatternType.PREFIXED ? index.prefixed : index.literal;
      if (pattern.patternType === PatternType.PREFIXED) index.prefixLengths.add(pattern.name.length);
      const list = map.get(pattern.name) ?? [];
      list.push(...entries);
      map.set(pattern.name, list);
    }
  }

  /** Every stored pattern with its entries. */
  get patterns(): readonly PatternAcls[] {
    return this.#patterns;
  }

  /** Every binding (one per entry). */
  bindings(): AclBinding[] {
    return this.#patterns.flatMap(({ pattern, entries }) => entries.map((entry) => ({ pattern, entry })));
  }

  /** The entries of every binding that applies to `resource` (its LITERAL name, the LITERAL "*", matching PREFIXED). */
  entriesFor(resource: AclResource): AclEntry[] {
    const index = this.#byType.get(resource.resourceType);
    if (index === undefined) return [];
    const found: AclEntry[] = [];
    const add = (entries: readonly AclEntry[] | undefined): void => {
      if (entries !== undefined) found.push(...entries);
    };
    add(index.literal.get(resource.name));
    if (resource.name !== WILDCARD) add(index.literal.get(WILDCARD));
    for (const length of index.prefixLengths) {
      if (length <= resource.name.length) add(index.prefixed.get(resource.name.slice(0, length)));
    }
    return found;
  }

  /** The patterns of one resource type with their entries. */
  patternsOf(resourceType: number): PatternAcls[] {
    return this.#patterns.filter((acls) => acls.pattern.resourceType === resourceType);
  }
}
