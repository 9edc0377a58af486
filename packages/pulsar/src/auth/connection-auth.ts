// The authentication state of one Pulsar connection. CONNECT's credentials are checked before anything else is
// served (the role they authenticate is the connection's for its lifetime); while the broker's authentication is on,
// a timer checks every `refreshCheckMs` whether the credentials expired: an expired connection whose client
// announced `supportsAuthRefresh` is sent AUTH_CHALLENGE and must answer with AUTH_RESPONSE before the next check
// (the new credentials must be valid and name the same role), any other expired connection is closed — as Apache
// Pulsar's ServerCnx does. Authorization checks of the connection's requests go through here too.
import type { CommandAuthResponse, CommandConnect } from "../protocol/index.js";
import type { NamespaceName, TopicName } from "../topics/topic-name.js";
import { authenticationRefused, authorizationRefused } from "./auth-refusal.js";
import type { BrokerAuth } from "./broker-auth.js";
import type { TopicOperation } from "./pulsar-authorization.js";

/** What the connection does when its credentials need attention. */
export interface ConnectionAuthHooks {
  /** Writes an AUTH_CHALLENGE asking the client for fresh credentials. */
  challenge(): void;
  /** The credentials expired and were not refreshed in time: close the connection. */
  expired(reason: string): void;
}

/** The data of Pulsar's refresh challenge (what AuthenticationProviderToken sends). */
export const REFRESH_AUTH_DATA = new TextEncoder().encode("PulsarAuthRefresh");

/** Pulsar's messages for the requests a role is not allowed to make. */
const REFUSED: Readonly<Record<string, string>> = {
  produce: "Client is not authorized to Publish",
  consume: "Client is not authorized to subscribe",
  lookup: "Client is not authorized to Lookup",
};

/** The authentication state of one connection (see the module comment). */
export class ConnectionAuth {
  readonly #auth: BrokerAuth;
  readonly #clock: () => number;
  #role: string | undefined;
  #expiresAtMillis: number | undefined;
  #challengePending = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor(auth: BrokerAuth, clock: () => number = Date.now) {
    this.#auth = auth;
    this.#clock = clock;
  }

  /** The role the connection authenticated as (undefined while authentication is off or before CONNECT). */
  get role(): string | undefined {
    return this.#role;
  }

  /**
   * Authenticates CONNECT's credentials (nothing to do while authentication is off) and starts the expiry checks.
   * Rejects with a PulsarAuthRefusal: the connection must be refused.
   */
  async connect(command: CommandConnect, hooks: ConnectionAuthHooks): Promise<void> {
    const authentication = this.#auth.authentication;
    if (authentication === undefined) return;
    const method = command.authMethodName ?? legacyMethodName(command.authMethod);
    const { role, expiresAtMillis } = await authentication.authenticate(method, command.authData);
    this.#role = role;
    this.#expiresAtMillis = expiresAtMillis;
    if (this.#closed) return;
    const supportsRefresh = command.featureFlags?.supportsAuthRefresh === true;
    this.#timer = setInterval(() => this.#check(supportsRefresh, hooks), authentication.refreshCheckMs);
    this.#timer.unref?.();
  }

  /**
   * Checks the credentials of an AUTH_RESPONSE: valid and for the same role, they replace the expired ones. Rejects
   * with a PulsarAuthRefusal: the connection must be closed.
   */
  async respond(command: CommandAuthResponse): Promise<void> {
    const authentication = this.#auth.authentication;
    if (authentication === undefined) throw authenticationRefused("AUTH_RESPONSE while authentication is off");
    this.#challengePending = false;
    const response = command.response;
    const { role, expiresAtMillis } = await authentication.authenticate(response?.authMethodName, response?.authData);
    if (role !== this.#role) throw authenticationRefused("The role cannot change during an authentication refresh");
    this.#expiresAtMillis = expiresAtMillis;
  }

  /**
   * Resolves when the connection's role may do `operation` on `topic` (consuming: through `subscription`); rejects
   * with a PulsarAuthRefusal.
   */
  async authorizeTopic(topic: TopicName, operation: TopicOperation, subscription?: string): Promise<void> {
    const authorization = this.#auth.authorization;
    if (authorization === undefined) return;
    const role = this.#role;
    if (role === undefined || !(await authorization.allowTopicOperation(role, topic, operation))) {
      throw authorizationRefused(REFUSED[operation]!);
    }
    if (subscription === undefined) return;
    const refusal = await authorization.subscriptionRefusal(role, topic, subscription);
    if (refusal !== undefined) throw authorizationRefused(refusal);
  }

  /** Resolves when the connection's role may list the topics of `namespace`; rejects with a PulsarAuthRefusal. */
  async authorizeNamespaceLookup(namespace: NamespaceName): Promise<void> {
    const authorization = this.#auth.authorization;
    if (authorization === undefined) return;
    const role = this.#role;
    if (role === undefined || !(await authorization.allowNamespaceLookup(role, namespace))) {
      throw authorizationRefused("Client is not authorized to GetTopicsOfNamespace");
    }
  }

  /** Stops the expiry checks. Idempotent. */
  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
  }

  #check(supportsRefresh: boolean, hooks: ConnectionAuthHooks): void {
    if (this.#closed) return;
    const expiresAt = this.#expiresAtMillis;
    if (expiresAt === undefined || this.#clock() < expiresAt) return;
    if (!supportsRefresh) return hooks.expired("the credentials expired and the client cannot refresh them");
    if (this.#challengePending) return hooks.expired("the client did not refresh its expired credentials in time");
    this.#challengePending = true;
    hooks.challenge();
  }
}

/** The method name of CONNECT's deprecated numeric method (`none` when absent). */
function legacyMethodName(method: number | undefined): string {
  if (method === 1) return "ycav1";
  if (method === 2) return "athens";
  return "none";
}
