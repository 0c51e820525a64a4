// One strip of the share card from satori element to PNG scanlines (a filter-type byte 0 before each
// RGB row): satori lays it out, the box layer (box-layer.mjs) paints its boxes, resvg whatever else it holds, and
// the glyph layer (glyph-layer.mjs) its text, all straight into the scanlines. The renderer threads
// (render-worker.mjs) use it, and so do the tests that compare it with resvg drawing everything.
// Plain ES module: the renderer threads import it from the source tree with plain Node.
import { paintBoxes, paintOver, takeBoxes } from "./box-layer.mjs";
import { GlyphLayer } from "./glyph-layer.mjs";
import { PIXEL_BYTES } from "./pixel-blend.mjs";

/**
 * @param {{ satori: Function, fonts: unknown[], Resvg: typeof import("@resvg/resvg-js").Resvg, drawGlyphs?: boolean, drawBoxes?: boolean, maxGlyphs?: number }} options
 *   drawGlyphs false leaves every glyph to resvg, as a path in the SVG, and drawBoxes false every box (the references
 *   in glyph-layer.test.ts and box-layer.test.ts); maxGlyphs bounds the rasterised glyphs kept (glyph-layer.mjs).
 */
export function createStripPainter({ satori, fonts, Resvg, drawGlyphs = true, drawBoxes = true, maxGlyphs }) {
  const glyphs = drawGlyphs ? new GlyphLayer(Resvg, maxGlyphs) : null;
  // The scanline buffer is kept between strips: a fresh 4-15 MB buffer each time is memory the system must hand over
  // page by page again. A strip's scanlines are valid until the next strip is painted.
  let scanBuffer = new Uint8Array(0);
  let cover = new Uint16Array(0);
  const rasterise = (svg, width) => new Resvg(svg, { fitTo: { mode: "width", value: width }, font: { loadSystemFonts: false } }).render();

  async function paintStrip(element, width) {
    const layout = () => satori(element, { width, fonts });
    const svg = glyphs ? glyphs.takeRuns(await glyphs.capture(layout)) : await layout();
    const taken = drawBoxes ? takeBoxes(svg, width) : null;
    // resvg draws the strip when the box layer cannot, or what the box layer left of it.
    const image = taken === null ? rasterise(svg, width) : taken.rest === null ? null : rasterise(taken.rest, width);
    const height = taken?.height ?? image.height;
    if (image !== null && (image.width !== width || image.height !== height)) {
      throw new Error(`share renderer: resvg drew ${image.width}×${image.height} for a ${width}×${height} strip`);
    }
    const stride = width * PIXEL_BYTES + 1;
    const size = height * stride;
    if (scanBuffer.length < size) scanBuffer = new Uint8Array(size);
    if (cover.length < width) cover = new Uint16Array(width);
    const scanlines = scanBuffer.subarray(0, size);
    // White under anything not painted, unless the first box is the strip's background, covering every pixel
    // (satori's root rect). The kept buffer may hold an earlier strip's pixels.
    const [first] = taken?.boxes ?? [];
    const covered = first !== undefined && first.x <= 0 && first.y <= 0 && first.x + first.width >= width && first.y + first.height >= height && first.radii.every(([rx, ry]) => rx === 0 && ry === 0);
    if (!covered) scanlines.fill(255);
    // Filter type 0 (none) on every row: the card is flat colour and text, which deflate packs well unfiltered.
    for (let y = 0; y < height; y++) scanlines[y * stride] = 0;
    if (taken !== null) paintBoxes(taken.boxes, scanlines, stride, 1, width, height, cover);
    if (image !== null) paintOver(scanlines, stride, 1, width, height, image.pixels);
    glyphs?.draw(scanlines, width, height, stride, 1);
    return { width, height, scanlines };
  }
  /** How many rasterised glyphs the painter keeps. */
  paintStrip.glyphsKept = () => glyphs?.cache.size ?? 0;
  return paintStrip;
}
