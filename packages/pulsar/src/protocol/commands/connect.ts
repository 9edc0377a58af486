// The connection handshake: CONNECT (client → broker) answered by CONNECTED, and the auth-refresh exchange
// AUTH_CHALLENGE (broker → client) answered by AUTH_RESPONSE.
import { defineMessage } from "../wire/message-schema.js";
import { protoEnum } from "../wire/proto-enum.js";
import { bytes, int32, string } from "../wire/proto-type.js";
import { optional, required } from "../wire/field-spec.js";
import { type AuthData, AuthDataCodec, type FeatureFlags, FeatureFlagsCodec } from "../messages/feature-flags.js";

/** The deprecated numeric authentication methods of CONNECT (clients send `authMethodName` instead). */
export const AuthMethod = { AuthMethodNone: 0, AuthMethodYcaV1: 1, AuthMethodAthens: 2 } as const;

/** CONNECT: the first command of every connection. */
export interface CommandConnect {
  /** Client library and version, free text. */
  readonly clientVersion: string;
  /** Deprecated {@link AuthMethod}; superseded by `authMethodName`. */
  readonly authMethod?: number;
  readonly authData?: Uint8Array;
  /** Highest protocol version the client speaks; absent means 0. */
  readonly protocolVersion?: number;
  /** Authentication plugin name (`token`, `tls`, ...). */
  readonly authMethodName?: string;
  /** Broker a proxy should forward to (honoured by proxies only). */
  readonly proxyToBrokerUrl?: string;
  readonly originalPrincipal?: string;
  readonly originalAuthData?: string;
  readonly originalAuthMethod?: string;
  readonly featureFlags?: FeatureFlags;
  /** Version of the proxy that forwards this connection. */
  readonly proxyVersion?: string;
}

export const CommandConnectCodec = defineMessage<CommandConnect>("CommandConnect", {
  clientVersion: required(1, string),
  authMethod: optional(2, protoEnum("AuthMethod", AuthMethod)),
  authData: optional(3, bytes),
  protocolVersion: optional(4, int32),
  authMethodName: optional(5, string),
  proxyToBrokerUrl: optional(6, string),
  originalPrincipal: optional(7, string),
  originalAuthData: optional(8, string),
  originalAuthMethod: optional(9, string),
  featureFlags: optional(10, FeatureFlagsCodec),
  proxyVersion: optional(11, string),
});

/** CONNECTED: the broker accepted the connection. */
export interface CommandConnected {
  readonly serverVersion: string;
  /** Protocol version both sides use (the lower of the two); absent means 0. */
  readonly protocolVersion?: number;
  /** Largest message the broker accepts, in bytes. */
  readonly maxMessageSize?: number;
  readonly featureFlags?: FeatureFlags;
}

export const CommandConnectedCodec = defineMessage<CommandConnected>("CommandConnected", {
  serverVersion: required(1, string),
  protocolVersion: optional(2, int32),
  maxMessageSize: optional(3, int32),
  featureFlags: optional(4, FeatureFlagsCodec),
});

/** AUTH_CHALLENGE: the broker asks for (fresh) credentials. */
export interface CommandAuthChallenge {
  readonly serverVersion?: string;
  readonly challenge?: AuthData;
  readonly protocolVersion?: number;
}

export const CommandAuthChallengeCodec = defineMessage<CommandAuthChallenge>("CommandAuthChallenge", {
  serverVersion: optional(1, string),
  challenge: optional(2, AuthDataCodec),
  protocolVersion: optional(3, int32),
});

/** AUTH_RESPONSE: the client's answer to an AUTH_CHALLENGE. */
export interface CommandAuthResponse {
  readonly clientVersion?: string;
  readonly response?: AuthData;
  readonly protocolVersion?: number;
}

export const CommandAuthResponseCodec = defineMessage<CommandAuthResponse>("CommandAuthResponse", {
  clientVersion: optional(1, string),
  response: optional(2, AuthDataCodec),
  protocolVersion: optional(3, int32),
});
