// Public API of @nereus/kafka. The broker-side handlers over the storage core land here; today the package
// exposes its sans-IO wire codec as the `protocol` namespace (also importable as @nereus/kafka/protocol).
export * as protocol from "./protocol/index.js";
