// The refusals of Pulsar authentication (credentials missing, malformed, expired or signed with another key) and
// authorization (a role without the permission an operation needs), as one error class the broker's handlers
// translate into Pulsar's AuthenticationError / AuthorizationError and the admin API into HTTP 401 / 403. A refusal's
// message never contains the credentials it refused.
import { ErrorCode, NereusError } from "@nereus/core";

/** Which check refused: who the client is (`authentication`) or what that role may do (`authorization`). */
export type AuthRefusalKind = "authentication" | "authorization";

/** A refused client: nothing was done on its behalf. `INVALID_ARGUMENT`, never retryable. */
export class PulsarAuthRefusal extends NereusError {
  readonly kind: AuthRefusalKind;

  constructor(kind: AuthRefusalKind, message: string, options: { readonly cause?: unknown } = {}) {
    super(ErrorCode.INVALID_ARGUMENT, message, { retryable: false, cause: options.cause, details: { kind } });
    this.name = "PulsarAuthRefusal";
    this.kind = kind;
  }
}

/** An authentication refusal. */
export function authenticationRefused(message: string, cause?: unknown): PulsarAuthRefusal {
  return new PulsarAuthRefusal("authentication", message, { cause });
}

/** An authorization refusal. */
export function authorizationRefused(message: string): PulsarAuthRefusal {
  return new PulsarAuthRefusal("authorization", message);
}
