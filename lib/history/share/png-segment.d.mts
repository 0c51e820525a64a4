/** One strip's piece of the PNG's zlib stream (png-segment.mjs). */
export interface DeflateSegment {
  /** Raw deflate of the strip's scanlines, ending in a sync flush (not final). */
  deflated: Uint8Array;
  /** Adler-32 of the scanlines. */
  adler32: number;
  /** Bytes of scanlines. */
  length: number;
}
export function adler32(bytes: Uint8Array): number;
export function adler32Combine(first: number, second: number, secondLength: number): number;
export function deflateSegment(scanlines: Uint8Array): DeflateSegment;
