// The configuration being assembled from its sources (defaults come from the schema): a raw JSON object plus,
// per dotted field path, which source set it — a config file, a NEREUS_* variable or a flag — so a validation
// error can name where a bad value came from. Later sets override earlier ones.

/** A JSON object of the configuration being assembled. */
export type RawObject = Record<string, unknown>;

export function isObject(value: unknown): value is RawObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The configuration being assembled plus, per dotted path, where its value came from. */
export class Layers {
  readonly raw: RawObject = {};
  readonly #sources = new Map<string, string>();

  set(fieldPath: readonly string[], value: unknown, source: string): void {
    let node = this.raw;
    for (const key of fieldPath.slice(0, -1)) {
      const next = node[key];
      if (!isObject(next)) node[key] = {};
      node = node[key] as RawObject;
    }
    node[fieldPath.at(-1)!] = value;
    this.#sources.set(fieldPath.join("."), source);
  }

  /** Merges a config file's object, leaf by leaf. */
  merge(value: RawObject, source: string, prefix: readonly string[] = []): void {
    for (const [key, child] of Object.entries(value)) {
      if (isObject(child) && Object.keys(child).length > 0) this.merge(child, source, [...prefix, key]);
      else this.set([...prefix, key], child, source);
    }
  }

  /** Where the value at `fieldPath` (or its nearest ancestor) came from. */
  sourceOf(fieldPath: readonly PropertyKey[]): string | undefined {
    for (let length = fieldPath.length; length > 0; length -= 1) {
      const source = this.#sources.get(fieldPath.slice(0, length).map(String).join("."));
      if (source !== undefined) return source;
    }
    return undefined;
  }
}
