// PING and PONG: keep-alive probes either side may send; the other answers a PING with a PONG. Both bodies are
// empty messages (still present in the BaseCommand).
import { defineMessage } from "../wire/message-schema.js";

/** Body of PING and PONG: no fields. */
export type CommandEmpty = Readonly<Record<never, never>>;

export const CommandPingCodec = defineMessage<CommandEmpty>("CommandPing", {});
export const CommandPongCodec = defineMessage<CommandEmpty>("CommandPong", {});
