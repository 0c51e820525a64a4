// Colours and "over" for the share card's own painting (glyph-layer.mjs, box-layer.mjs) onto its
// scanlines: RGB (the card is opaque: its root box has a background, and a strip without one is painted over white),
// in integer arithmetic.
// Plain ES module: the renderer threads import it from the source tree with plain Node.

/** Bytes per pixel of the card's scanlines: RGB, no alpha (a third less to compress than RGBA; the card is opaque). */
export const PIXEL_BYTES = 3;

/** [r, g, b] of a hex colour's digits ("1e3a8a" or "fff", no "#"), as satori writes fills. */
export function hexColor(digits) {
  const full = digits.length === 3 ? [...digits].map((c) => c + c).join("") : digits;
  const value = Number.parseInt(full, 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** round(x / 255) for 0 <= x <= 255 * 255, without a division (the same values: no exact halves to round). */
function div255(x) {
  const y = x + 128;
  return (y + (y >> 8)) >> 8;
}

/** Paints colour (r, g, b) at coverage `a` (1-255) over the RGB pixel at byte `at` of `rows`. */
export function blendOver(rows, at, r, g, b, a) {
  const under = 255 - a;
  rows[at] = div255(r * a + rows[at] * under);
  rows[at + 1] = div255(g * a + rows[at + 1] * under);
  rows[at + 2] = div255(b * a + rows[at + 2] * under);
}

/**
 * Paints a premultiplied pixel (pr, pg, pb: colour already scaled by its alpha `a`, 1-254; resvg's pixels are so)
 * over the RGB pixel at byte `at` of `rows`.
 */
export function blendPremultipliedOver(rows, at, pr, pg, pb, a) {
  const under = 255 - a;
  rows[at] = pr + div255(rows[at] * under);
  rows[at + 1] = pg + div255(rows[at + 1] * under);
  rows[at + 2] = pb + div255(rows[at + 2] * under);
}
