// Public API of @nereus/cursor: durable cursors over core's metadata and object stores.
export type { AckRange, PartialAck } from "./domain/ack-types.js";
export {
  DEFAULT_CURSOR_LIMITS,
  type CursorLimits,
  type CursorStoreOptions,
  type CursorStreamAccess,
} from "./store/cursor-store-options.js";
