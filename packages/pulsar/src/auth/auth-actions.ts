// The actions a role may be granted on a namespace or topic — Pulsar's AuthAction: produce, consume, functions,
// sources, sinks, packages — with the durable bit of each (permission records store a role's actions as a bit set).

/** Pulsar's AuthAction names (the JSON the admin API exchanges). */
export const AUTH_ACTIONS = ["produce", "consume", "functions", "sources", "sinks", "packages"] as const;

export type AuthAction = (typeof AUTH_ACTIONS)[number];

/** Durable bit of each action in a permission record (never renumber). */
const ACTION_BIT: Readonly<Record<AuthAction, number>> = {
  produce: 1,
  consume: 2,
  functions: 4,
  sources: 8,
  sinks: 16,
  packages: 32,
};

/** Every bit a record may set. */
export const ALL_ACTION_BITS = 63;

/** True when `value` names an AuthAction. */
export function isAuthAction(value: unknown): value is AuthAction {
  return typeof value === "string" && (AUTH_ACTIONS as readonly string[]).includes(value);
}

/** The bit set of `actions`. */
export function actionBits(actions: Iterable<AuthAction>): number {
  let bits = 0;
  for (const action of actions) bits |= ACTION_BIT[action];
  return bits;
}

/** The actions of a bit set, in AUTH_ACTIONS order. */
export function actionsOf(bits: number): AuthAction[] {
  return AUTH_ACTIONS.filter((action) => (bits & ACTION_BIT[action]) !== 0);
}
