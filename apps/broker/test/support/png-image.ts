// Decodes a PNG — 8-bit greyscale, grey+alpha, RGB or RGBA, not interlaced, as Chromium's screenshots are — into its
// pixels (IHDR, the IDAT stream inflated, each row's filter undone), so a test can check that a screenshot shows
// something: its size and how many of its pixels differ from the most common colour.
import { inflateSync } from "node:zlib";

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** A decoded image: `channels` bytes per pixel, rows top to bottom. */
export interface PngImage {
  readonly width: number;
  readonly height: number;
  readonly channels: number;
  readonly pixels: Uint8Array;
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpLeft = Math.abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft) return left;
  return toUp <= toUpLeft ? up : upLeft;
}

function unfilter(data: Buffer, width: number, height: number, channels: number): Uint8Array {
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let row = 0; row < height; row += 1) {
    const filter = data[row * (stride + 1)];
    const source = row * (stride + 1) + 1;
    const target = row * stride;
    for (let index = 0; index < stride; index += 1) {
      const raw = data[source + index]!;
      const left = index >= channels ? pixels[target + index - channels]! : 0;
      const up = row > 0 ? pixels[target - stride + index]! : 0;
      const upLeft = row > 0 && index >= channels ? pixels[target - stride + index - channels]! : 0;
      const predictor =
        filter === 0
          ? 0
          : filter === 1
            ? left
            : filter === 2
              ? up
              : filter === 3
                ? (left + up) >> 1
                : paeth(left, up, upLeft);
      if (filter === undefined || filter > 4)
        throw new Error(`PNG row ${String(row)} has unknown filter ${String(filter)}`);
      pixels[target + index] = (raw + predictor) & 0xff;
    }
  }
  return pixels;
}

/** Decodes `png`; throws on anything but an 8-bit, non-interlaced greyscale/RGB(A) image. */
export function decodePng(png: Buffer): PngImage {
  if (png.length < 8 || !png.subarray(0, 8).equals(SIGNATURE)) throw new Error("not a PNG (bad signature)");
  let header: { width: number; height: number; channels: number } | undefined;
  const idat: Buffer[] = [];
  for (let offset = 8; offset + 8 <= png.length;) {
    const length = png.readUInt32BE(offset);
    const type = png.toString("latin1", offset + 4, offset + 8);
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      const bitDepth = data[8];
      const colorType = data[9]!;
      const interlace = data[12];
      const channels = CHANNELS[colorType];
      if (bitDepth !== 8 || channels === undefined || interlace !== 0)
        throw new Error(
          `unsupported PNG: bit depth ${String(bitDepth)}, colour type ${String(colorType)}, interlace ${String(interlace)}`,
        );
      header = { width: data.readUInt32BE(0), height: data.readUInt32BE(4), channels };
    } else if (type === "IDAT") idat.push(data);
    else if (type === "IEND") break;
    offset += 12 + length;
  }
  if (header === undefined || idat.length === 0) throw new Error("PNG without IHDR or IDAT");
  const { width, height, channels } = header;
  return { width, height, channels, pixels: unfilter(inflateSync(Buffer.concat(idat)), width, height, channels) };
}

/** How varied an image is: distinct colours (RGB) and the share of pixels unlike the most common colour. */
export function colourStatistics(image: PngImage): { distinctColours: number; nonBackgroundShare: number } {
  const counts = new Map<number, number>();
  const { pixels, channels } = image;
  for (let index = 0; index < pixels.length; index += channels) {
    const colour =
      channels >= 3 ? (pixels[index]! << 16) | (pixels[index + 1]! << 8) | pixels[index + 2]! : pixels[index]!;
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  const total = image.width * image.height;
  const background = Math.max(...counts.values());
  return { distinctColours: counts.size, nonBackgroundShare: (total - background) / total };
}
