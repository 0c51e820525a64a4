// The share PNG's pixel data is one zlib stream, and each renderer thread writes its own strip's piece
// of it: the strip's scanlines as raw deflate ending in a sync flush (byte-aligned, not final), with the strip's
// Adler-32. The main thread only joins the pieces (png-encode.ts) and combines the checksums, so compression runs
// on every core instead of in one pass on libuv's pool (which cost ~40 ms a card: 15 MB in 16 kB rounds).
// Plain ES module: the renderer threads import it from the source tree with plain Node.
import zlib from "node:zlib";

const MOD = 65521;
// Unfiltered scanlines of flat colour and text: level 2 is within ~5 % of the size of level 6 at a fraction of its time.
const DEFLATE_LEVEL = 2;

/**
 * Adler-32 of `bytes` (RFC 1950), computed by zlib: it is the trailer of a stored (level 0) zlib stream of them.
 * Node exposes no Adler-32 of its own; storing is a copy at memory speed, and with zlib's checksum it took ~3.5 ms
 * for a 15 MB card where a JavaScript loop over every byte took ~10 ms.
 */
export function adler32(bytes) {
  // One output chunk that fits the whole stored stream (5 bytes per block of up to 65,535, 6 of header and trailer),
  // instead of Node's 16 kB chunks joined afterwards.
  const chunkSize = Math.max(64, bytes.length + 5 * Math.ceil(bytes.length / 65535) + 64);
  const stored = zlib.deflateSync(bytes, { level: 0, chunkSize });
  return stored.readUInt32BE(stored.length - 4);
}

/** The Adler-32 of two byte runs one after the other, from each run's own (zlib's adler32_combine). */
export function adler32Combine(first, second, secondLength) {
  const rem = secondLength % MOD;
  let sum1 = first & 0xffff;
  let sum2 = (rem * sum1) % MOD;
  sum1 += (second & 0xffff) + MOD - 1;
  sum2 += ((first >>> 16) & 0xffff) + ((second >>> 16) & 0xffff) + MOD - rem;
  if (sum1 >= MOD) sum1 -= MOD;
  if (sum1 >= MOD) sum1 -= MOD;
  if (sum2 >= MOD * 2) sum2 -= MOD * 2;
  if (sum2 >= MOD) sum2 -= MOD;
  return ((sum2 << 16) | sum1) >>> 0;
}

/** One strip's piece of the PNG's zlib stream. */
export function deflateSegment(scanlines) {
  const deflated = zlib.deflateRawSync(scanlines, { level: DEFLATE_LEVEL, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  // A copy of our own: a small result can share Node's pooled memory, which must not be transferred to another thread.
  return { deflated: new Uint8Array(deflated), adler32: adler32(scanlines), length: scanlines.length };
}
