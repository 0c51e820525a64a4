import { promisify } from "node:util";
import zlib from "node:zlib";

// Issue 23 §1: the share card's PNG container written here rather than by resvg's asPng() or pngjs, because the
// card is a 1080 × ~3,600 RGBA picture of flat colour and text: resvg's encoder spent ~90 ms and pngjs ~100 ms on
// it where unfiltered scanlines through zlib at level 2 take ~25 ms (and ~5 % more bytes), off the event loop in
// libuv's thread pool. Truecolour with alpha, 8 bits, no interlace: what resvg itself writes.

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DEFLATE_LEVEL = 2;
const deflate = promisify(zlib.deflate);

/** Rows of a picture as PNG scanlines: each RGBA row preceded by its filter-type byte. */
export interface Scanlines {
  width: number;
  height: number;
  scanlines: Uint8Array;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "latin1");
  out.set(data, 8);
  out.writeUInt32BE(zlib.crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** One PNG of strips stacked top to bottom (all of one width). */
export async function encodePng(strips: readonly Scanlines[]): Promise<Uint8Array> {
  const width = strips[0]?.width ?? 0;
  if (width === 0 || strips.some((s) => s.width !== width || s.scanlines.length !== s.height * (width * 4 + 1))) {
    throw new Error("PNG strips must share one width and hold height × (4 × width + 1) bytes each");
  }
  const height = strips.reduce((sum, s) => sum + s.height, 0);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: truecolour with alpha
  const raw = strips.length === 1 ? strips[0]!.scanlines : Buffer.concat(strips.map((s) => s.scanlines));
  const data = await deflate(raw, { level: DEFLATE_LEVEL });
  return Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", data), chunk("IEND", new Uint8Array())]);
}
