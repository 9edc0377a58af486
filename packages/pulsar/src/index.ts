// Public API of @nereus/pulsar: for now the sans-IO Pulsar binary-protocol codec, as the `protocol` namespace
// (also importable as @nereus/pulsar/protocol). The managed-ledger facade and the broker-side handlers follow.
export * as protocol from "./protocol/index.js";
