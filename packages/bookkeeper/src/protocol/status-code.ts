// Status codes of the BookKeeper v3 wire protocol (BookkeeperProtocol.proto `StatusCode`). Values are wire
// facts; never renumber. Translation into Nereus errors happens once, in errors/map-bookie-error.ts.

/** Status a bookie reports for a request (numeric wire values). */
export const StatusCode = {
  EOK: 0,
  ENOLEDGER: 402,
  ENOENTRY: 403,
  EBADREQ: 404,
  EIO: 501,
  EUA: 502,
  EBADVERSION: 503,
  EFENCED: 504,
  EREADONLY: 505,
  ETOOMANYREQUESTS: 506,
  EUNKNOWNLEDGERSTATE: 507,
} as const;

export type StatusCode = (typeof StatusCode)[keyof typeof StatusCode];

const NAMES = new Map<number, string>(Object.entries(StatusCode).map(([name, value]) => [value, name]));

/** Symbolic name of a status value (`"EFENCED"`), or `"UNKNOWN(<n>)"` for values this client does not know. */
export function statusCodeName(status: number): string {
  return NAMES.get(status) ?? `UNKNOWN(${String(status)})`;
}
