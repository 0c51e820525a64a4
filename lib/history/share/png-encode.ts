import zlib from "node:zlib";
import { PIXEL_BYTES } from "./pixel-blend.mjs";
import { adler32Combine, type DeflateSegment } from "./png-segment.mjs";

// The share card's PNG container written here rather than by resvg's asPng() or pngjs, because the
// card is a 1080 × ~3,600 picture of flat colour and text: resvg's encoder spent ~90 ms and pngjs ~100 ms on
// it. The renderer threads deliver each strip's unfiltered scanlines already deflated as a piece of one zlib stream
// (png-segment.mjs); joining them is a copy of a few hundred kilobytes. Truecolour, 8 bits, no interlace: the card is
// opaque, and RGB rows are a quarter fewer bytes to paint, check and deflate than resvg's RGBA (strip-painter.mjs).

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// zlib header: deflate with a 32 kB window, no preset dictionary (0x78 0x01 is a multiple of 31, as RFC 1950 asks).
const ZLIB_HEADER = Uint8Array.of(0x78, 0x01);
// An empty final block (fixed Huffman codes, end of block at once): the pieces all end in a sync flush.
const FINAL_BLOCK = Uint8Array.of(0x03, 0x00);

/** A strip of the picture: its size and its scanlines (each RGB row after a filter-type byte) as a deflate piece. */
export interface DeflatedStrip extends DeflateSegment {
  width: number;
  height: number;
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
export function encodePng(strips: readonly DeflatedStrip[]): Uint8Array {
  const width = strips[0]?.width ?? 0;
  if (width === 0 || strips.some((s) => s.width !== width || s.length !== s.height * (width * PIXEL_BYTES + 1))) {
    throw new Error(`PNG strips must share one width and hold height × (${PIXEL_BYTES} × width + 1) bytes each`);
  }
  const height = strips.reduce((sum, s) => sum + s.height, 0);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: truecolour
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(strips.reduce((sum, s, i) => (i === 0 ? s.adler32 : adler32Combine(sum, s.adler32, s.length)), 1));
  const data = Buffer.concat([ZLIB_HEADER, ...strips.map((s) => s.deflated), FINAL_BLOCK, checksum]);
  return Buffer.concat([SIGNATURE, chunk("IHDR", header), chunk("IDAT", data), chunk("IEND", new Uint8Array())]);
}
