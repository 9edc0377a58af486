// Builders of decoded group-API requests for tests and tools: each body is encoded with the codec into a real
// frame and decoded back, so a test drives the coordinator with exactly what a client's bytes would produce.
// Not used by the coordinator itself.
import { decodeRequest } from "../protocol/decode-request.js";
import { encodeRequest } from "../protocol/encode-request.js";
import type { RequestBody, SupportedApiKey } from "../protocol/supported-apis.js";
import type { RequestOf } from "./group-coordinator.js";

let correlation = 0;

/** Encodes `body` as a request of API `apiKey` at `apiVersion` and decodes it as the broker would. */
export function groupRequest<K extends SupportedApiKey>(
  apiKey: K,
  apiVersion: number,
  body: RequestBody<K>,
  clientId: string | null = "test-client",
): RequestOf<K> {
  correlation = (correlation + 1) % 0x7fff_ffff;
  const frame = encodeRequest({ apiKey, apiVersion, correlationId: correlation, clientId }, body);
  const decoded = decodeRequest(frame.subarray(4));
  if (decoded.kind !== "request" || decoded.apiKey !== apiKey)
    throw new Error(`api key ${String(apiKey)} v${String(apiVersion)} did not decode as a request`);
  return decoded as RequestOf<K>;
}

/** A JoinGroup body with consumer-style defaults. */
export function joinGroupBody(
  groupId: string,
  memberId: string,
  options: {
    sessionTimeoutMs?: number;
    rebalanceTimeoutMs?: number;
    groupInstanceId?: string | null;
    protocolType?: string;
    protocols?: readonly { name: string; metadata: Uint8Array }[];
  } = {},
): RequestBody<11> {
  return {
    groupId,
    sessionTimeoutMs: options.sessionTimeoutMs ?? 10_000,
    rebalanceTimeoutMs: options.rebalanceTimeoutMs ?? 30_000,
    memberId,
    groupInstanceId: options.groupInstanceId ?? null,
    protocolType: options.protocolType ?? "consumer",
    protocols: (options.protocols ?? [{ name: "range", metadata: new Uint8Array([1, 2, 3]) }]).map((protocol) => ({
      ...protocol,
    })),
    reason: null,
  };
}
