// Issue 23 §1: one strip of the share card from satori element to PNG scanlines (a filter-type byte 0 before each
// RGBA row): satori lays it out, resvg rasterises it, and the glyph layer (glyph-layer.mjs) draws its text. The
// renderer threads (render-worker.mjs) use it, and so does the test that compares it with resvg drawing the text.
// Plain ES module: the renderer threads import it from the source tree with plain Node.
import { GlyphLayer } from "./glyph-layer.mjs";

/**
 * @param {{ satori: Function, fonts: unknown[], Resvg: typeof import("@resvg/resvg-js").Resvg, drawGlyphs?: boolean, maxGlyphs?: number }} options
 *   drawGlyphs false leaves every glyph to resvg, as a path in the SVG (the comparison in glyph-layer.test.ts);
 *   maxGlyphs bounds the rasterised glyphs kept (glyph-layer.mjs).
 */
export function createStripPainter({ satori, fonts, Resvg, drawGlyphs = true, maxGlyphs }) {
  const glyphs = drawGlyphs ? new GlyphLayer(Resvg, maxGlyphs) : null;
  // The scanline buffer is kept between strips: a fresh 4-15 MB buffer each time is memory the system must hand over
  // page by page again. A strip's scanlines are valid until the next strip is painted.
  let scanBuffer = new Uint8Array(0);
  async function paintStrip(element, width) {
    const layout = () => satori(element, { width, fonts });
    const svg = glyphs ? glyphs.takeRuns(await glyphs.capture(layout)) : await layout();
    const image = new Resvg(svg, { fitTo: { mode: "width", value: width }, font: { loadSystemFonts: false } }).render();
    const rowBytes = image.width * 4;
    const pixels = image.pixels;
    const size = image.height * (rowBytes + 1);
    if (scanBuffer.length < size) scanBuffer = new Uint8Array(size);
    const scanlines = scanBuffer.subarray(0, size);
    for (let y = 0; y < image.height; y++) {
      // Filter type 0 (none): the card is flat colour and text, which deflate packs well unfiltered. Written on every
      // row, since the kept buffer may hold pixels of an earlier strip there.
      scanlines[y * (rowBytes + 1)] = 0;
      scanlines.set(pixels.subarray(y * rowBytes, (y + 1) * rowBytes), y * (rowBytes + 1) + 1);
    }
    glyphs?.draw(scanlines, image.width, image.height, rowBytes + 1, 1);
    return { width: image.width, height: image.height, scanlines };
  }
  /** How many rasterised glyphs the painter keeps. */
  paintStrip.glyphsKept = () => glyphs?.cache.size ?? 0;
  return paintStrip;
}
