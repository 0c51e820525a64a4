import zlib from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodePng } from "./png-encode";
import { PIXEL_BYTES } from "./pixel-blend.mjs";
import { adler32, adler32Combine, deflateSegment } from "./png-segment.mjs";

// The PNG's one zlib stream is joined from pieces each renderer thread deflated on its own. zlib's own
// inflate checks the stream's structure and its Adler-32 trailer, so it is the judge here.

function idat(png: Uint8Array): Buffer {
  const view = Buffer.from(png);
  let at = 8;
  const parts: Buffer[] = [];
  while (at < view.length) {
    const length = view.readUInt32BE(at);
    const type = view.subarray(at + 4, at + 8).toString("latin1");
    const data = view.subarray(at + 8, at + 8 + length);
    expect(view.readUInt32BE(at + 8 + length)).toBe(zlib.crc32(view.subarray(at + 4, at + 8 + length)));
    if (type === "IDAT") parts.push(data);
    at += 12 + length;
  }
  return Buffer.concat(parts);
}

/** Adler-32 straight from RFC 1950's definition, the reference the fast one is checked against. */
function referenceAdler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** Rows of `width` RGB pixels, each after a filter byte 0, from arbitrary bytes. */
function scanlines(width: number, height: number, fill: (i: number) => number): Uint8Array {
  const row = width * PIXEL_BYTES;
  const out = new Uint8Array(height * (row + 1));
  for (let y = 0; y < height; y++) for (let x = 0; x < row; x++) out[y * (row + 1) + 1 + x] = fill(y * row + x) & 0xff;
  return out;
}

describe("share PNG container from deflated strips", () => {
  it("Adler-32 matches RFC 1950's definition, and combining two runs' checksums equals the checksum of both", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 20_000 }), fc.nat(), (bytes, cut) => {
        const whole = adler32(bytes);
        expect(whole).toBe(referenceAdler32(bytes));
        const at = bytes.length ? cut % (bytes.length + 1) : 0;
        const [a, b] = [bytes.subarray(0, at), bytes.subarray(at)];
        expect(adler32Combine(adler32(a), adler32(b), b.length)).toBe(whole);
      }),
      { numRuns: 60 },
    );
    // Longer than one stored block (65,535 bytes), with sums that overflow 32 bits without reduction.
    const ones = new Uint8Array(300_000).fill(0xff);
    expect(adler32(ones)).toBe(referenceAdler32(ones));
    expect(adler32(new Uint8Array())).toBe(1);
  });

  it("strips deflated apart join into one valid stream holding every row in order", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(fc.integer({ min: 1, max: 30 }), { minLength: 1, maxLength: 5 }), fc.nat(), (width, heights, seed) => {
        const strips = heights.map((height, i) => {
          const rows = scanlines(width, height, (n) => (n * 31 + i * 7 + seed) % 251);
          return { width, height, ...deflateSegment(rows), rows };
        });
        const png = encodePng(strips);
        const view = Buffer.from(png);
        expect(view.readUInt32BE(16)).toBe(width);
        expect(view.readUInt32BE(20)).toBe(heights.reduce((a, b) => a + b, 0));
        const inflated = zlib.inflateSync(idat(png)); // throws on a wrong Adler-32 or a broken stream
        expect(inflated.equals(Buffer.concat(strips.map((s) => s.rows)))).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it("refuses strips of different widths or of the wrong length", () => {
    const a = { width: 2, height: 1, ...deflateSegment(new Uint8Array(7)) };
    expect(() => encodePng([a])).not.toThrow();
    expect(() => encodePng([{ width: 2, height: 1, ...deflateSegment(new Uint8Array(9)) }])).toThrow(/one width/); // RGBA rows
    expect(() => encodePng([a, { width: 3, height: 1, ...deflateSegment(new Uint8Array(10)) }])).toThrow(/one width/);
    expect(() => encodePng([{ ...a, height: 2 }])).toThrow(/one width/);
    expect(() => encodePng([])).toThrow(/one width/);
  });
});
