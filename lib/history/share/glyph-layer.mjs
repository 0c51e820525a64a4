// The card's text drawn from rasterised glyphs kept per renderer thread, the way a browser draws text,
// instead of every glyph written into the SVG as a path for resvg to parse and fill on every card. A profile of a
// card's strips put text at two thirds of resvg's work (1 MB of path text to parse, then filled) and a good part of
// satori's (the path text itself, its strings and their garbage).
//
// While satori lays a strip out, its glyph-path writer (satori-paths.mjs) hands each glyph to this layer, which
// answers a marker ("G12") in place of the path. In satori's SVG a run of text is then a `<path>` whose `d` is only
// markers. A run drawn plainly (a bare `<g>` around one `<path>` with a fill colour, maybe a fill-opacity, and
// nothing else, with no group around it that clips, masks, filters, fades or moves it) leaves the SVG and is drawn
// here, over resvg's picture of the rest; any other run gets its glyphs' real path data back in place of the
// markers, so resvg draws it as before. A glyph is rasterised
// once per size, slant and position within a pixel, in quarter pixels each way (satori itself rounds outlines to
// tenths), by resvg itself: the misses of a strip are drawn together on one sheet, so the coverage is resvg's own.
// Drawing text after the rest of the strip is right for the share card, whose text never lies under a later box;
// glyph-layer.test.ts compares whole cards both ways.
// Plain ES module: the renderer threads import it from the source tree with plain Node.
import { blendOver, hexColor, PIXEL_BYTES } from "./pixel-blend.mjs";
import { GLYPH_SINK } from "./satori-paths.mjs";

/** Positions within a pixel a glyph is rasterised at, each way: a quarter pixel is below what the eye can place. */
const STEPS = 4;
/**
 * Rasterised glyphs kept per thread, about 0.8 kB each: a Chinese card needs some 700 (a glyph at each size and
 * position within a pixel it is drawn at); past this the least recently drawn go first.
 */
const MAX_GLYPHS = 20_000;
/** A sheet of glyphs is at most this many pixels each way (a power of two: see rasteriseSheet). */
const SHEET_SIZE = 1024;

// A run drawn plainly, or the start or end of an element that can hold one: a group, or a definition (mask, clip
// path, filter...) whose content is not painted where it stands.
const RUN_OR_CONTAINER =
  /(<g><path fill="#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})"(?: fill-opacity="([0-9.]+)")? d="((?:G\d+ *)+)"\/><\/g>)|<(\/?)(g|mask|clipPath|defs|filter|pattern|symbol|marker)\b([^>]*)>/g;
const MARKED_PATH = / d="([^"]*G\d[^"]*)"/g;
const MARKER = /G(\d+)/g;

/** A glyph outline's extent in font units, slant applied: [minX, maxX, minY, maxY]. */
function outlineBox(commands, skew) {
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  const add = (x, y) => {
    const sx = x + skew * y;
    if (sx < minX) minX = sx;
    if (sx > maxX) maxX = sx;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  };
  for (const c of commands) {
    if (c.type === "Z") continue;
    add(c.x, c.y);
    if (c.type === "Q" || c.type === "C") add(c.x1, c.y1);
    if (c.type === "C") add(c.x2, c.y2);
  }
  return [minX, maxX, minY, maxY];
}

export class GlyphLayer {
  /**
   * @param {typeof import("@resvg/resvg-js").Resvg} Resvg
   * @param {number} maxGlyphs rasterised glyphs kept (a test keeps few)
   */
  constructor(Resvg, maxGlyphs = MAX_GLYPHS) {
    this.Resvg = Resvg;
    this.maxGlyphs = maxGlyphs;
    this.ids = new WeakMap();
    this.nextId = 0;
    /**
     * key → { left, top, width, height, alpha, spans } (alpha: coverage, one byte per pixel; spans: each row's covered
     * columns, [first, end); width 0: nothing to draw)
     */
    this.cache = new Map();
    this.placements = [];
    this.runs = [];
    this.write = undefined;
  }

  /** Runs `layout` (a satori call) with this layer taking its glyphs; answers its SVG, markers in place of glyphs. */
  async capture(layout) {
    this.placements = [];
    this.runs = [];
    globalThis[GLYPH_SINK] = (commands, x, y, scale, skew, write) => {
      this.write = write;
      return `G${this.placements.push({ commands, x, y, scale, skew, key: "", ix: 0, iy: 0 }) - 1}`;
    };
    try {
      return await layout();
    } finally {
      delete globalThis[GLYPH_SINK];
    }
  }

  /**
   * The SVG for resvg: plainly drawn runs taken out (kept to be drawn by `draw`), every other marker replaced by its
   * glyph's path data. Rasterises the glyphs of the taken runs that no earlier strip has.
   */
  takeRuns(svg) {
    if (this.placements.length === 0) return svg;
    // For each container open around the current point: whether it or one around it changes how its content is
    // painted (any but a bare `<g>`). A run inside one (a text shadow's filter, a parent's opacity or clip) is left
    // to resvg.
    const changing = [];
    const rest = svg
      .replace(RUN_OR_CONTAINER, (match, run, hex, opacity, markers, closing, tag, attributes) => {
        if (run !== undefined) {
          if (changing.at(-1)) return match;
          this.runs.push({ color: hexColor(hex), opacity: opacity === undefined ? 1 : Number(opacity), ids: markers.match(/\d+/g).map(Number) });
          return "";
        }
        if (closing) changing.pop();
        else if (!attributes.endsWith("/")) changing.push(changing.at(-1) === true || tag !== "g" || attributes.trim() !== "");
        return match;
      })
      .replace(MARKED_PATH, (_, d) => ` d="${d.replace(MARKER, (m, i) => this.pathOf(this.placements[Number(i)]))}"`);
    this.rasteriseMissing();
    return rest;
  }

  pathOf(p) {
    return this.write(p.commands, p.x, p.y, p.scale, p.skew);
  }

  glyphId(commands) {
    let id = this.ids.get(commands);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(commands, id);
    }
    return id;
  }

  rasteriseMissing() {
    this.evict();
    const missing = new Map();
    for (const run of this.runs) {
      for (const i of run.ids) {
        const p = this.placements[i];
        p.ix = Math.floor(p.x);
        p.iy = Math.floor(p.y);
        let fx = Math.round((p.x - p.ix) * STEPS);
        let fy = Math.round((p.y - p.iy) * STEPS);
        if (fx === STEPS) {
          p.ix += 1;
          fx = 0;
        }
        if (fy === STEPS) {
          p.iy += 1;
          fy = 0;
        }
        p.key = `${this.glyphId(p.commands)}|${p.scale}|${p.skew}|${fx}|${fy}`;
        const kept = this.cache.get(p.key);
        if (kept !== undefined) {
          // Drawn again: to the back of the line for eviction.
          this.cache.delete(p.key);
          this.cache.set(p.key, kept);
        } else if (!missing.has(p.key)) missing.set(p.key, { p, fx: fx / STEPS, fy: fy / STEPS });
      }
    }
    if (missing.size > 0) this.rasterise([...missing]);
  }

  /** Draws the missing glyphs on sheets with resvg and keeps each one's coverage. */
  rasterise(missing) {
    let cells = [];
    let x = 0;
    let y = 0;
    let rowHeight = 0;
    for (const [key, { p, fx, fy }] of missing) {
      if (p.commands.length === 0) {
        this.cache.set(key, { left: 0, top: 0, width: 0, height: 0, alpha: new Uint8Array(0), spans: new Uint16Array(0) });
        continue;
      }
      const [minX, maxX, minY, maxY] = outlineBox(p.commands, p.skew);
      // The pixels the outline can touch, relative to the glyph's whole-pixel origin, a pixel of margin each side.
      const left = Math.floor(fx + minX * p.scale) - 1;
      const top = Math.floor(fy - maxY * p.scale) - 1;
      const width = Math.min(SHEET_SIZE, Math.ceil(fx + maxX * p.scale) + 1 - left);
      const height = Math.min(SHEET_SIZE, Math.ceil(fy - minY * p.scale) + 1 - top);
      if (x + width > SHEET_SIZE) {
        x = 0;
        y += rowHeight + 1;
        rowHeight = 0;
      }
      if (y + height > SHEET_SIZE) {
        this.rasteriseSheet(cells, y);
        cells = [];
        x = 0;
        y = 0;
        rowHeight = 0;
      }
      cells.push({ key, p, fx, fy, x, y, left, top, width, height });
      x += width + 1;
      rowHeight = Math.max(rowHeight, height);
    }
    if (cells.length > 0) this.rasteriseSheet(cells, y + rowHeight);
  }

  /**
   * One sheet of glyphs. Its outlines lie between SHEET_SIZE and twice that on both axes (the view box starts there),
   * where a 32-bit float has the same spacing everywhere: resvg then draws a glyph alike wherever on a sheet it
   * falls, so what a thread keeps for a glyph does not depend on which other glyphs shared its sheet, and two threads,
   * or a thread before and after a restart, draw a card the same to the byte.
   */
  rasteriseSheet(cells, height) {
    let paths = "";
    for (const { p, fx, fy, x, y, left, top } of cells) {
      paths += `<path d="${this.write(p.commands, SHEET_SIZE + x - left + fx, SHEET_SIZE + y - top + fy, p.scale, p.skew)}"/>`;
    }
    const sheet = `<svg xmlns="http://www.w3.org/2000/svg" width="${SHEET_SIZE}" height="${height}" viewBox="${SHEET_SIZE} ${SHEET_SIZE} ${SHEET_SIZE} ${height}">${paths}</svg>`;
    const pixels = new this.Resvg(sheet, { font: { loadSystemFonts: false } }).render().pixels;
    for (const cell of cells) {
      const alpha = new Uint8Array(cell.width * cell.height);
      // Per row, the columns from its first to past its last covered pixel (none: equal), so drawing skips the rest.
      const spans = new Uint16Array(cell.height * 2);
      for (let row = 0; row < cell.height; row++) {
        const from = ((cell.y + row) * SHEET_SIZE + cell.x) * 4 + 3;
        let first = cell.width;
        let end = 0;
        for (let col = 0; col < cell.width; col++) {
          const a = pixels[from + col * 4];
          alpha[row * cell.width + col] = a;
          if (a !== 0) {
            if (col < first) first = col;
            end = col + 1;
          }
        }
        spans[row * 2] = Math.min(first, end);
        spans[row * 2 + 1] = end;
      }
      this.cache.set(cell.key, { left: cell.left, top: cell.top, width: cell.width, height: cell.height, alpha, spans });
    }
  }

  /** Before a strip's glyphs are looked up (never between that and drawing them): the least recently drawn go. */
  evict() {
    if (this.cache.size <= this.maxGlyphs) return;
    const target = Math.floor(this.maxGlyphs * 0.9);
    for (const key of this.cache.keys()) {
      if (this.cache.size <= target) break;
      this.cache.delete(key);
    }
  }

  /**
   * Draws the taken runs onto the strip's rows: `rows` holds `height` rows of `width` RGB pixels, each row starting
   * `offset` bytes into its `stride` (the PNG scanlines, whose first byte is the filter type).
   */
  draw(rows, width, height, stride, offset) {
    for (const { color, opacity, ids } of this.runs) {
      const [r, g, b] = color;
      for (const i of ids) {
        const p = this.placements[i];
        const glyph = this.cache.get(p.key);
        if (glyph === undefined || glyph.width === 0) continue;
        const x0 = p.ix + glyph.left;
        const y0 = p.iy + glyph.top;
        const colFrom = Math.max(0, -x0);
        const colTo = Math.min(glyph.width, width - x0);
        const rowFrom = Math.max(0, -y0);
        const rowTo = Math.min(glyph.height, height - y0);
        const { alpha, spans } = glyph;
        for (let row = rowFrom; row < rowTo; row++) {
          const line = (y0 + row) * stride + offset + x0 * PIXEL_BYTES;
          const cover = row * glyph.width;
          const end = Math.min(colTo, spans[row * 2 + 1]);
          for (let col = Math.max(colFrom, spans[row * 2]); col < end; col++) {
            const a = opacity === 1 ? alpha[cover + col] : Math.round(alpha[cover + col] * opacity);
            if (a !== 0) blendOver(rows, line + col * PIXEL_BYTES, r, g, b, a);
          }
        }
      }
    }
  }
}
