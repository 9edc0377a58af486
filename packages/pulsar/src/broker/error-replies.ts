// How the command handlers answer failures: a storage, subscription or auth error becomes one Pulsar server error
// (the storage side through mapStorageError, the subscription rules by their refusal reason, auth refusals as
// AuthenticationError / AuthorizationError), and the frames of the generic ERROR answer.
import { type PulsarCommand, ServerError } from "../protocol/index.js";
import { PulsarAuthRefusal } from "../auth/auth-refusal.js";
import { mapStorageError } from "../ledger/map-storage-error.js";
import { SubscriptionRefusedError } from "../subscriptions/subscription-refused-error.js";

/** A failure as the server error and message a client receives. */
export interface ErrorReply {
  readonly error: number;
  readonly message: string;
}

const BY_REFUSAL: Readonly<Record<SubscriptionRefusedError["reason"], number>> = {
  CONSUMER_BUSY: ServerError.ConsumerBusy,
  CONSUMER_ASSIGN: ServerError.ConsumerAssignError,
  NOT_ALLOWED: ServerError.NotAllowedError,
  CONSUMER_NOT_FOUND: ServerError.ConsumerNotFound,
  ALREADY_CONNECTED: ServerError.ConsumerBusy,
  UNAVAILABLE: ServerError.ServiceNotReady,
};

/** The server error of any failure of a handler (subscription refusals by reason, the rest via mapStorageError). */
export function errorReplyOf(error: unknown): ErrorReply {
  if (error instanceof SubscriptionRefusedError) return { error: BY_REFUSAL[error.reason], message: error.message };
  if (error instanceof PulsarAuthRefusal) {
    const code = error.kind === "authentication" ? ServerError.AuthenticationError : ServerError.AuthorizationError;
    return { error: code, message: error.message };
  }
  const mapped = mapStorageError(error);
  return { error: mapped.serverError, message: mapped.message };
}

/** The ERROR answer to request `requestId`. */
export function errorCommand(requestId: bigint, reply: ErrorReply): PulsarCommand {
  return { type: "ERROR", body: { requestId, error: reply.error, message: reply.message } };
}
