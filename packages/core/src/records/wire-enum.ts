// Explicit, durable wire ids for string enums in binary records. Ids are written down next to each value, never
// derived from array positions, so reordering or adding values cannot silently change stored meaning.

/** A bijection between the values of a string enum and u8 wire ids. */
export class WireEnum<T extends string> {
  readonly name: string;
  readonly #idByValue: ReadonlyMap<string, number>;
  readonly #valueById: ReadonlyMap<number, T>;

  /** Throws at construction when a value or id repeats, or an id is outside 1..255 (0 is never a valid id). */
  constructor(name: string, entries: ReadonlyArray<readonly [T, number]>) {
    this.name = name;
    const idByValue = new Map<string, number>();
    const valueById = new Map<number, T>();
    for (const [value, id] of entries) {
      if (!Number.isInteger(id) || id < 1 || id > 255 || idByValue.has(value) || valueById.has(id)) {
        throw new Error(`WireEnum ${name}: duplicate or invalid entry ${value}=${String(id)}`);
      }
      idByValue.set(value, id);
      valueById.set(id, value);
    }
    this.#idByValue = idByValue;
    this.#valueById = valueById;
  }

  /** The wire id of `value`, or undefined when `value` is not a member. */
  idOf(value: string): number | undefined {
    return this.#idByValue.get(value);
  }

  /** The value with wire id `id`, or undefined for an unknown id. */
  valueOf(id: number): T | undefined {
    return this.#valueById.get(id);
  }
}
