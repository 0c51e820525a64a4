// Issue 23 §1: "over" for the share card's own painting (glyph-layer.mjs, box-layer.mjs): straight alpha, as resvg
// answers its pixels, in integer arithmetic where the pixel below is opaque (the card's case).
// Plain ES module: the renderer threads import it from the source tree with plain Node.

/** round(x / 255) for 0 <= x <= 255 * 255, without a division (the same values: no exact halves to round). */
function div255(x) {
  const y = x + 128;
  return (y + (y >> 8)) >> 8;
}

/** Paints colour (r, g, b) at coverage `a` (1-255) over the RGBA pixel at byte `at` of `pixels`. */
export function blendOver(pixels, at, r, g, b, a) {
  const under = 255 - a;
  if (pixels[at + 3] === 255) {
    pixels[at] = div255(r * a + pixels[at] * under);
    pixels[at + 1] = div255(g * a + pixels[at + 1] * under);
    pixels[at + 2] = div255(b * a + pixels[at + 2] * under);
    return;
  }
  // A pixel that is not opaque: the card has none, but a strip's content could.
  const below = (pixels[at + 3] * under) / 255;
  const out = a + below;
  if (out === 0) return;
  pixels[at] = Math.round((r * a + pixels[at] * below) / out);
  pixels[at + 1] = Math.round((g * a + pixels[at + 1] * below) / out);
  pixels[at + 2] = Math.round((b * a + pixels[at + 2] * below) / out);
  pixels[at + 3] = Math.round(out);
}

/**
 * Paints a premultiplied pixel (pr, pg, pb: colour already scaled by its alpha `a`, 1-254; resvg's pixels are so) over
 * the straight-alpha RGBA pixel at byte `at` of `pixels`.
 */
export function blendPremultipliedOver(pixels, at, pr, pg, pb, a) {
  const under = 255 - a;
  if (pixels[at + 3] === 255) {
    pixels[at] = Math.min(255, pr + div255(pixels[at] * under));
    pixels[at + 1] = Math.min(255, pg + div255(pixels[at + 1] * under));
    pixels[at + 2] = Math.min(255, pb + div255(pixels[at + 2] * under));
    return;
  }
  const below = (pixels[at + 3] * under) / 255;
  const out = a + below;
  if (out === 0) return;
  pixels[at] = Math.min(255, Math.round(((pr + (pixels[at] * below) / 255) * 255) / out));
  pixels[at + 1] = Math.min(255, Math.round(((pg + (pixels[at + 1] * below) / 255) * 255) / out));
  pixels[at + 2] = Math.min(255, Math.round(((pb + (pixels[at + 2] * below) / 255) * 255) / out));
  pixels[at + 3] = Math.round(out);
}
