// Issue 23 §1: one strip of the share card from satori element to PNG scanlines (a filter-type byte 0 before each
// RGBA row): satori lays it out, the box layer (box-layer.mjs) paints its boxes, resvg whatever else it holds, and
// the glyph layer (glyph-layer.mjs) its text. The renderer threads (render-worker.mjs) use it, and so do the tests
// that compare it with resvg drawing everything.
// Plain ES module: the renderer threads import it from the source tree with plain Node.
import { paintBoxes, paintOver, takeBoxes } from "./box-layer.mjs";
import { GlyphLayer } from "./glyph-layer.mjs";

/**
 * @param {{ satori: Function, fonts: unknown[], Resvg: typeof import("@resvg/resvg-js").Resvg, drawGlyphs?: boolean, drawBoxes?: boolean, maxGlyphs?: number }} options
 *   drawGlyphs false leaves every glyph to resvg, as a path in the SVG, and drawBoxes false every box (the references
 *   in glyph-layer.test.ts and box-layer.test.ts); maxGlyphs bounds the rasterised glyphs kept (glyph-layer.mjs).
 */
export function createStripPainter({ satori, fonts, Resvg, drawGlyphs = true, drawBoxes = true, maxGlyphs }) {
  const glyphs = drawGlyphs ? new GlyphLayer(Resvg, maxGlyphs) : null;
  // The buffers are kept between strips: a fresh 4-15 MB buffer each time is memory the system must hand over page
  // by page again. A strip's scanlines are valid until the next strip is painted.
  let scanBuffer = new Uint8Array(0);
  let canvas = new Uint8Array(0);
  let cover = new Uint16Array(0);
  const resvgOptions = (width) => ({ fitTo: { mode: "width", value: width }, font: { loadSystemFonts: false } });

  /** The strip's RGBA pixels: boxes painted here and the rest by resvg, or all by resvg. */
  function picture(svg, width) {
    const taken = drawBoxes ? takeBoxes(svg, width) : null;
    if (taken === null) {
      const image = new Resvg(svg, resvgOptions(width)).render();
      return { width: image.width, height: image.height, pixels: image.pixels };
    }
    const size = taken.width * taken.height * 4;
    if (canvas.length < size) canvas = new Uint8Array(size);
    if (cover.length < taken.width) cover = new Uint16Array(taken.width);
    const pixels = canvas.subarray(0, size);
    const words = new Uint32Array(pixels.buffer, 0, size >> 2);
    // Cleared unless the first box is the strip's background, covering every pixel (satori's root rect).
    const [first] = taken.boxes;
    const covered = first !== undefined && first.x <= 0 && first.y <= 0 && first.x + first.width >= taken.width && first.y + first.height >= taken.height && first.radii.every(([rx, ry]) => rx === 0 && ry === 0);
    if (!covered) words.fill(0);
    paintBoxes(taken.boxes, pixels, words, taken.width, taken.height, cover);
    if (taken.rest !== null) {
      const rest = new Resvg(taken.rest, resvgOptions(width)).render();
      if (rest.width !== taken.width || rest.height !== taken.height) throw new Error(`share renderer: resvg drew ${rest.width}×${rest.height} for a ${taken.width}×${taken.height} strip`);
      paintOver(pixels, words, rest.pixels);
    }
    return { width: taken.width, height: taken.height, pixels };
  }

  async function paintStrip(element, width) {
    const layout = () => satori(element, { width, fonts });
    const svg = glyphs ? glyphs.takeRuns(await glyphs.capture(layout)) : await layout();
    const image = picture(svg, width);
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
