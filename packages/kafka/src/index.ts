// Public API of @nereus/kafka. The broker-side handlers over the storage core land here; today the package
// exposes its sans-IO wire codec, also reachable as @nereus/kafka/protocol.
export * from "./protocol/index.js";
