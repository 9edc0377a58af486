// BaseCommand, the envelope of every command: field 1 is the type code, and the body sits in the field whose
// number equals that code. Decoding reads the type, decodes only the body that type names (a missing body is a
// DECODE_ERROR, as Pulsar rejects it too) and skips any other field; a type this codec does not model decodes as
// unsupported, so the caller can log it and decide. Encoding writes the type then the body.
import { BinaryReader, type BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { decodeError, describeCause, invalidValue } from "../wire/codec-errors.js";
import type { MessageSchema } from "../wire/message-schema.js";
import { COMMAND_CODECS, type DecodedCommand, type PulsarCommand } from "./command-codecs.js";
import { CommandType, type CommandTypeName } from "./command-type.js";

const TYPE_FIELD = 1;

interface ModelledType {
  readonly name: CommandTypeName;
  readonly codec: MessageSchema<object>;
}

const TYPES_BY_CODE: readonly (ModelledType | undefined)[] = (() => {
  const byCode: (ModelledType | undefined)[] = [];
  for (const [name, code] of Object.entries(CommandType) as [CommandTypeName, number][]) {
    byCode[code] = { name, codec: COMMAND_CODECS[name] as MessageSchema<object> };
  }
  return byCode;
})();

interface BodySlice {
  readonly bytes: Uint8Array;
  readonly offset: number;
}

/**
 * Decodes a BaseCommand that fills `bytes` (`offset`: its position in the frame, for errors). Throws DECODE_ERROR
 * for malformed protobuf, a missing type, a missing body or a malformed body.
 */
export function decodeBaseCommand(bytes: Uint8Array, offset = 0): DecodedCommand {
  const reader = new BinaryReader(bytes);
  let typeCode: number | undefined;
  // Bodies by field number; the last occurrence of a field wins. Almost always the type comes first and one body
  // follows, so the map is only created for anything else.
  let body: BodySlice | undefined;
  let bodyNumber = 0;
  let others: Map<number, BodySlice> | undefined;
  try {
    while (reader.pos < reader.len) {
      const [number, wireType] = reader.tag();
      if (number === TYPE_FIELD && wireType === WireType.Varint) {
        typeCode = reader.int32();
      } else if (wireType === WireType.LengthDelimited && TYPES_BY_CODE[number] !== undefined) {
        const bytesOfBody = reader.bytes();
        const slice = { bytes: bytesOfBody, offset: offset + reader.pos - bytesOfBody.length };
        if (body !== undefined && bodyNumber !== number) (others ??= new Map()).set(bodyNumber, body);
        body = slice;
        bodyNumber = number;
      } else {
        reader.skip(wireType, number);
      }
    }
  } catch (cause) {
    throw decodeError("BaseCommand", offset + Math.min(reader.pos, reader.len), describeCause(cause), cause);
  }
  if (typeCode === undefined) throw decodeError("BaseCommand", offset, "required field type (number 1) is missing");
  const modelled = TYPES_BY_CODE[typeCode];
  if (modelled === undefined) return { type: "UNSUPPORTED", typeCode };
  const typeBody = bodyNumber === typeCode ? body : others?.get(typeCode);
  if (typeBody === undefined) {
    throw decodeError("BaseCommand", offset, `${modelled.name} command without its body (field ${String(typeCode)})`);
  }
  return { type: modelled.name, body: modelled.codec.decode(typeBody.bytes, typeBody.offset) } as PulsarCommand;
}

/** Writes `command` as a BaseCommand (no size prefix). Throws INVALID_ARGUMENT for an unencodable command. */
export function writeBaseCommand(writer: BinaryWriter, command: PulsarCommand): void {
  const code = (CommandType as Readonly<Record<string, number>>)[command.type];
  if (code === undefined)
    throw invalidValue("BaseCommand.type", "command type", command.type, "not a modelled command type");
  writer.tag(TYPE_FIELD, WireType.Varint).int32(code);
  writer.tag(code, WireType.LengthDelimited);
  (COMMAND_CODECS[command.type] as MessageSchema<object>).write(writer, command.body);
}
