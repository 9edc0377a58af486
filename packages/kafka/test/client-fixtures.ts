// Reading and labelling the frozen real-client captures in test/fixtures/<client>-<scenario>.hex.
import fs from "node:fs";
import path from "node:path";
import { fromHex } from "@nereus/core";
import { ApiKey } from "../src/protocol/api-key.js";

const NAMES = new Map<number, string>(Object.entries(ApiKey).map(([name, key]) => [key, name]));

/** "Metadata.v4" for a request frame (api key and version are its first four bytes). */
export function frameLabel(frame: Uint8Array): string {
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const key = view.getInt16(0);
  return `${NAMES.get(key) ?? `api${String(key)}`}.v${String(view.getInt16(2))}`;
}

/** A frozen capture: the client version line and the frames in order. */
export interface ClientFixture {
  readonly client: string;
  readonly frames: ReadonlyArray<{ readonly label: string; readonly frame: Uint8Array }>;
}

/** Loads test/fixtures/<name>.hex. */
export function loadClientFixture(name: string): ClientFixture {
  const text = fs.readFileSync(path.resolve(import.meta.dirname, "fixtures", `${name}.hex`), "utf8");
  const client = /^# client: (.*)$/m.exec(text)?.[1] ?? "unknown";
  const frames = text
    .split("\n")
    .filter((line) => line.length > 0 && !line.startsWith("#"))
    .map((line) => {
      const [label = "", hexText = ""] = line.split(" ");
      return { label, frame: fromHex(hexText) };
    });
  return { client, frames };
}
